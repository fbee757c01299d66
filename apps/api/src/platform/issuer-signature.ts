import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  issuingSignatureHeader,
  issuingSignatureToleranceMs,
  issuingTimestampHeader,
} from '@coffer/contracts/cards';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './app-error.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The body exactly as it arrived, kept on issuer-signed routes for the signature. */
    rawBody: string | null;
  }
}

/** Signed requests are small; a processor's authorization is well under a kilobyte. */
const signedBodySizeMaxBytes = 16 * 1024;

/**
 * The signature of a body sent at `timestampSeconds`: HMAC-SHA256 over "timestamp.body"
 * in hex, so a captured signature cannot be replayed with another timestamp.
 */
export function issuerSignature(secret: string, timestampSeconds: string, body: string): string {
  return createHmac('sha256', secret).update(`${timestampSeconds}.${body}`).digest('hex');
}

/** The headers a processor (or the sandbox) sends with `body`, signed now. */
export function issuerSignatureHeaders(
  secret: string,
  body: string,
  now = Date.now(),
): Record<string, string> {
  const timestampSeconds = String(Math.floor(now / 1000));
  return {
    [issuingTimestampHeader]: timestampSeconds,
    [issuingSignatureHeader]: issuerSignature(secret, timestampSeconds, body),
  };
}

function headerOf(request: FastifyRequest, name: string): string | null {
  const value = request.headers[name];
  return typeof value === 'string' ? value : null;
}

/**
 * Refuses, before the body is read, a request whose signature headers are missing or whose
 * timestamp is more than five minutes away from now: nothing is parsed for it.
 */
export function refuseUnsignedOrStale(request: FastifyRequest, now = Date.now()): void {
  const timestamp = headerOf(request, issuingTimestampHeader);
  const signature = headerOf(request, issuingSignatureHeader);
  if (!timestamp || !/^\d{1,12}$/.test(timestamp) || !signature) {
    throw new AppError('signature_invalid');
  }
  if (Math.abs(now - Number(timestamp) * 1000) > issuingSignatureToleranceMs) {
    throw new AppError('signature_invalid');
  }
}

/**
 * Checks the signature over the raw body (in constant time), then hands the route its
 * parsed JSON. A route whose body was not kept raw is refused: it fails closed.
 */
export function verifyIssuerSignature(request: FastifyRequest, secret: string): void {
  refuseUnsignedOrStale(request);
  const rawBody = request.rawBody;
  const timestamp = headerOf(request, issuingTimestampHeader) ?? '';
  const given = Buffer.from(headerOf(request, issuingSignatureHeader) ?? '', 'utf8');
  if (rawBody === null) throw new AppError('signature_invalid');
  const expected = Buffer.from(issuerSignature(secret, timestamp, rawBody), 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new AppError('signature_invalid');
  }
  try {
    request.body = JSON.parse(rawBody);
  } catch {
    throw new AppError('validation_failed', { message: 'The body is not valid JSON.' });
  }
}

/**
 * Keeps the JSON bodies of this plugin's routes as text: the signature is over the exact
 * bytes sent, and the JSON is parsed only once the signature holds.
 */
export function keepRawJsonBodies(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: signedBodySizeMaxBytes },
    (request, body, done) => {
      request.rawBody = typeof body === 'string' ? body : body.toString('utf8');
      done(null, request.rawBody);
    },
  );
}
