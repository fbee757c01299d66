import { rejectBodySchema } from '@coffer/contracts/admin';
import {
  kycDocumentBytesMax,
  kycDocumentSchema,
  kycOverviewSchema,
  kycSubmissionBodySchema,
  kycSubmissionSchema,
  staffKycSubmissionListSchema,
  staffKycSubmissionSchema,
} from '@coffer/contracts/kyc';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import { sessionOf, staffActionOf, staffRoutesOf } from '../../platform/access.ts';
import { AppError } from '../../platform/app-error.ts';
import { customerLimits } from '../../platform/rate-limits.ts';
import { kycCleanupJob } from './cleanup.ts';
import {
  decideKyc,
  kycOverview,
  kycQueue,
  openDocument,
  staffKycOf,
  submitKyc,
  uploadDocument,
} from './service.ts';
import { kycDocumentsDirectory, localDocumentStorage } from './storage.ts';
import { documentTooLarge } from './upload.ts';

const userParams = z.object({ userId: z.uuid() });
const submissionParams = z.object({ submissionId: z.uuid() });
const approveBodySchema = z.strictObject({});

/** The upload's body is the file's bytes; the route reads them as a stream. */
const documentContentType = 'application/octet-stream';

/**
 * The headers that keep a stored document inert in the browser: shown, never run. The
 * sandbox holds for PDFs too: Chromium's viewer still shows them (checked by hand).
 */
const documentPolicy =
  "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'self'; sandbox";

function sendDocumentHeaders(reply: FastifyReply, mediaType: string, fileName: string): void {
  reply
    .header('content-type', mediaType)
    .header('content-disposition', `inline; filename="${fileName}"`)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', documentPolicy)
    .header('cache-control', 'no-store')
    .header('x-frame-options', 'SAMEORIGIN');
}

const fileExtensions: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'application/pdf': 'pdf',
};

function wrongDocumentType(): AppError {
  return new AppError('unsupported_media_type', {
    message: `Send the file's bytes as ${documentContentType}.`,
  });
}

/** A declared length over the cap is refused before a byte is read. */
function refuseDeclaredOversize(request: FastifyRequest): void {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > kycDocumentBytesMax) throw documentTooLarge();
}

export const kycRoutes: FastifyPluginAsyncZod = async (app) => {
  const staffOnly = staffRoutesOf(app);
  const storage = localDocumentStorage(
    kycDocumentsDirectory(app.config.dataDir),
    app.config.secretKeys,
  );
  const deps = { db: app.db, config: app.config, site: app.site, mailer: app.mailer, storage };
  await app.jobs.register(
    kycCleanupJob({ db: app.db, storage, retentionDays: app.config.kycRetentionDays }),
  );

  // The body stays the request stream (this plugin's routes only): it is checked and
  // encrypted on its way to storage, never held whole in memory.
  app.addContentTypeParser(documentContentType, (_request, payload, done) => done(null, payload));
  // A type no parser takes (an image, a form) would get Fastify's own 415, which asks for
  // JSON: the upload names the type it takes instead.
  app.addContentTypeParser('*', (request, _payload, done) => {
    const isUpload = request.routeOptions.url === `${app.prefix}/kyc/documents`;
    done(isUpload ? wrongDocumentType() : new AppError('unsupported_media_type'), undefined);
  });

  app.get(
    '/kyc',
    { config: { access: 'customer' }, schema: { response: { 200: kycOverviewSchema } } },
    (request) => kycOverview(deps, sessionOf(request).userId),
  );

  app.post(
    '/kyc/documents',
    {
      config: { access: 'customer', customerLimit: customerLimits.kycUpload },
      schema: { response: { 201: kycDocumentSchema } },
      // The connection closes after a refusal that left the body unread (app.ts).
      onRequest: async (request) => refuseDeclaredOversize(request),
    },
    async (request, reply) => {
      const { userId } = sessionOf(request);
      const contentType = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
      if (contentType !== documentContentType) throw wrongDocumentType();
      const document = await uploadDocument(deps, userId, request.raw);
      return reply.status(201).send(document);
    },
  );

  app.post(
    '/kyc/submissions',
    {
      config: { access: 'customer', customerLimit: customerLimits.kycSubmission },
      schema: { body: kycSubmissionBodySchema, response: { 201: kycSubmissionSchema } },
    },
    async (request, reply) => {
      const submission = await submitKyc(deps, sessionOf(request).userId, request.body, request.ip);
      return reply.status(201).send(submission);
    },
  );

  staffOnly.get(
    '/admin/queues/kyc',
    { config: { access: 'staff' }, schema: { response: { 200: staffKycSubmissionListSchema } } },
    async () => ({ items: await kycQueue(deps) }),
  );

  staffOnly.get(
    '/admin/users/:userId/kyc',
    {
      config: { access: 'staff' },
      schema: { params: userParams, response: { 200: staffKycSubmissionListSchema } },
    },
    async (request) => ({ items: await staffKycOf(deps, request.params.userId) }),
  );

  staffOnly.get(
    '/admin/kyc/:submissionId/document',
    { config: { access: 'staff' }, schema: { params: submissionParams } },
    async (request, reply) => {
      const { submission, body } = await openDocument(
        deps,
        request.params.submissionId,
        staffActionOf(request, ''),
      );
      const fileName = `kyc-${submission.id}.${fileExtensions[submission.media_type] ?? 'bin'}`;
      sendDocumentHeaders(reply, submission.media_type, fileName);
      return reply.send(body);
    },
  );

  staffOnly.post(
    '/admin/kyc/:submissionId/approve',
    {
      config: { access: 'staff' },
      schema: {
        params: submissionParams,
        body: approveBodySchema,
        response: { 200: staffKycSubmissionSchema },
      },
    },
    (request) =>
      decideKyc(
        deps,
        request.params.submissionId,
        { status: 'approved' },
        staffActionOf(request, ''),
      ),
  );

  staffOnly.post(
    '/admin/kyc/:submissionId/reject',
    {
      config: { access: 'staff' },
      schema: {
        params: submissionParams,
        body: rejectBodySchema,
        response: { 200: staffKycSubmissionSchema },
      },
    },
    (request) =>
      decideKyc(
        deps,
        request.params.submissionId,
        { status: 'rejected', reason: request.body.reason },
        staffActionOf(request, request.body.reason),
      ),
  );
};
