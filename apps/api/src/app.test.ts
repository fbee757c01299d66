import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildTestApp, useTestApp } from '../test/app.ts';
import { testDatabaseKind } from '../test/database.ts';
import { httpChunk, RawConnection, requestHead } from '../test/raw-http.ts';
import type { Database } from './db/client.ts';

let db: Database;
let app: FastifyInstance;

useTestApp((opened) => {
  ({ app, db } = opened);
});

describe('the API shell', () => {
  it('answers health with the database it runs on', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'ok',
      database: testDatabaseKind(),
      isSandbox: false,
    });
  });

  it('answers unknown API paths with the JSON error body', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/no-such-thing' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: { code: 'not_found', message: 'Not found.' } });
  });

  it('answers malformed JSON with a 400, never a 500', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/health',
      headers: { 'content-type': 'application/json' },
      payload: '{"broken":',
    });
    expect(response.statusCode).toBeLessThan(500);
    expect(response.json().error.code).toMatch(/validation_failed|not_found/);
  });

  it('gives up on a request whose body never finishes, as on one whose headers never do', () => {
    // Fastify turns off Node's limit on a whole request (requestTimeout 0): a visitor who
    // sends part of a body (a sign-in, an upload) and then waits held the connection, its
    // memory and an open file forever; enough of them exhaust the server's descriptors.
    expect(app.server.requestTimeout).toBeGreaterThan(0);
    expect(app.server.requestTimeout).toBeLessThanOrEqual(5 * 60 * 1000);
    expect(app.server.headersTimeout).toBeGreaterThan(0);
    expect(app.server.headersTimeout).toBeLessThanOrEqual(app.server.requestTimeout);
  });

  it('closes the connection when it answers before the body has arrived', async () => {
    // Node would read and discard the rest of the body, which a visitor can make endless
    // (a chunked body sent to any path): that costs the API's one thread for every piece.
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const connection = new RawConnection(port);
    connection.socket.write(
      requestHead('POST /api/v1/no-such-path HTTP/1.1', ['host: x', 'transfer-encoding: chunked']),
    );
    await connection.writeUntilClosed(httpChunk(Buffer.alloc(0x10000)));
    expect(connection.answer).toMatch(/^HTTP\/1\.1 404/);
    expect(connection.isClosed).toBe(true);
    // A request that has arrived whole keeps its connection.
    const kept = await fetch(`${address}/api/v1/health`);
    expect(kept.headers.get('connection')).toBe('keep-alive');
  });

  it('sends security headers', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/health' });
    const policy = String(response.headers['content-security-policy']);
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
  });

  it('sends HSTS only when served over HTTPS', async () => {
    const plain = await app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const httpsApp = await buildTestApp(db, { COFFER_PUBLIC_URL: 'https://bank.example.org' });
    const secure = await httpsApp.inject({ method: 'GET', url: '/api/v1/health' });
    expect(secure.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    await httpsApp.close();
  });

  it('refuses staff routes to a visitor with 401', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/admin/ledger-health' });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('unauthenticated');
  });

  it('has an access declaration on every API route', async () => {
    const apiRoutes = app.registeredRoutes.filter((route) => route.url.startsWith('/api/'));
    expect(apiRoutes.length).toBeGreaterThan(0);
    const undeclared = apiRoutes.filter((route) => route.access === undefined);
    expect(undeclared.map((route) => `${route.method} ${route.url}`)).toEqual([]);
  });
});
