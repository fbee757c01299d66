// Access is decided by the route the router matched: a route without a declaration keeps
// the server from starting, handlers check the declaration again, and the CSRF check does
// not depend on how the path was spelled.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/app.ts';
import { openTestDatabase } from '../../test/database.ts';
import { signedUpClient, staffClient } from '../../test/http.ts';
import type { Database } from '../db/client.ts';
import { staffRoutesOf, staffSessionOf } from './access.ts';

let db: Database;

beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(async () => {
  await db.close();
});

async function appWith(register: (app: FastifyInstance) => void): Promise<FastifyInstance> {
  const app = await buildTestApp(db);
  register(app);
  return app;
}

describe('access control', () => {
  it('refuses to start with a route that declares no access', async () => {
    const app = await appWith((server) => {
      server.get('/api/v1/forgotten', async () => ({ secret: true }));
    });
    await expect(app.ready()).rejects.toThrow(/GET \/api\/v1\/forgotten/);
    await app.close();
  });

  it('keeps a staff handler closed even when its route is declared public by mistake', async () => {
    const app = await appWith((server) => {
      server.get('/api/v1/misdeclared', { config: { access: 'public' } }, async (request) => ({
        staffId: staffSessionOf(request).userId,
      }));
    });
    await app.ready();
    const visitor = await app.inject({ method: 'GET', url: '/api/v1/misdeclared' });
    expect(visitor.statusCode).toBe(401);
    const { client: customer } = await signedUpClient(app);
    expect((await customer.get('/api/v1/misdeclared')).statusCode).toBe(404);
    const { client: support } = await staffClient(app, 'support');
    expect((await support.get('/api/v1/misdeclared')).statusCode).toBe(200);
    await app.close();
  });

  it('refuses to start with a staff route whose handler does not check its caller', async () => {
    const app = await appWith((server) => {
      server.get('/api/v1/admin/unchecked', { config: { access: 'admin' } }, async () => ({}));
    });
    await expect(app.ready()).rejects.toThrow(/staffRoutesOf: GET \/api\/v1\/admin\/unchecked/);
    await app.close();
  });

  it('keeps a staff route closed to customers even when it is declared for them', async () => {
    const app = await appWith((server) => {
      staffRoutesOf(server.withTypeProvider<ZodTypeProvider>()).get(
        '/api/v1/misdeclared-customer',
        { config: { access: 'customer' } },
        async (_request, _reply, staff) => ({ staffId: staff.userId }),
      );
    });
    await app.ready();
    const { client: customer } = await signedUpClient(app);
    expect((await customer.get('/api/v1/misdeclared-customer')).statusCode).toBe(404);
    // The declaration still holds for everyone else: staff are refused by it.
    const { client: support } = await staffClient(app, 'support');
    expect((await support.get('/api/v1/misdeclared-customer')).statusCode).toBe(403);
    await app.close();
  });

  it('refuses a cross-site request whatever the spelling of its path', async () => {
    const app = await buildTestApp(db);
    await app.ready();
    const { client } = await signedUpClient(app);
    for (const url of ['/api/v1/auth/logout', '/%61pi/v1/auth/logout', '/api/v1/%61uth/logout']) {
      const response = await app.inject({
        method: 'POST',
        url,
        headers: { origin: 'https://evil.example', cookie: client.cookie ?? '' },
      });
      expect(response.statusCode, url).toBe(403);
    }
    // The session survived all three: none of them reached the handler.
    expect((await client.get('/api/v1/auth/me')).statusCode).toBe(200);
    await app.close();
  });

  it("declares the web build's files public, and serves them", async () => {
    // The test command builds the web app before the tests run.
    const app = await buildTestApp(db);
    await app.ready();
    const favicon = app.registeredRoutes.find((route) => route.url === '/favicon.svg');
    expect(favicon?.access).toBe('public');
    expect(app.registeredRoutes.filter((route) => route.access === undefined)).toEqual([]);
    expect((await app.inject({ method: 'GET', url: '/favicon.svg' })).statusCode).toBe(200);
    await app.close();
  });
});
