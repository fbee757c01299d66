import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.ts';
import { createCustomer } from '../../test/customers.ts';

let app: FastifyInstance;
useTestApp((opened) => {
  ({ app } = opened);
});

let listening: Promise<string> | undefined;

/** The raw answer to raw request bytes over a real connection (app.inject has no parser). */
async function rawExchange(request: string): Promise<{ status: number; body: string }> {
  listening ??= app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = new URL(await listening);
  return new Promise((resolve, reject) => {
    // Written, not ended: a client that half-closes first may lose its answer. The server
    // closes the connection once it has answered (Connection: close).
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = answer.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), body });
    });
  });
}

function healthRequest(queryChars: number, cookie: string | undefined): string {
  const cookieLine = cookie ? `Cookie: ${cookie}\r\n` : '';
  return `GET /api/v1/health?q=${'x'.repeat(queryChars)} HTTP/1.1\r\nHost: localhost\r\n${cookieLine}Connection: close\r\n\r\n`;
}

describe('requests the HTTP parser refuses', () => {
  it('answers a signed-in request with a long address, up to the 16 KB header limit', async () => {
    // curl 7.88 drops the cookie of such a request and leaves its headers unfinished (a
    // request that never ends gets no answer): the server itself answers it.
    const { cookie } = (await createCustomer(app)).client;
    for (const queryChars of [9_000, 12_000, 15_000]) {
      const answer = await rawExchange(healthRequest(queryChars, cookie));
      expect(answer.status, `${queryChars} characters`).toBe(200);
    }
  });

  it('answers 431 with the JSON error body beyond it, signed in or not', async () => {
    const { cookie } = (await createCustomer(app)).client;
    for (const signedIn of [cookie, undefined]) {
      const answer = await rawExchange(healthRequest(20_000, signedIn));
      expect(answer.status).toBe(431);
      expect(JSON.parse(answer.body)).toEqual({
        error: {
          code: 'request_header_too_large',
          message: 'This request’s address or headers are too long.',
        },
      });
    }
  });

  it('answers 400 with the JSON error body to a request it cannot read', async () => {
    const answer = await rawExchange('NOT AN HTTP REQUEST\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({
      error: { code: 'malformed_request', message: 'This request could not be read.' },
    });
  });
});
