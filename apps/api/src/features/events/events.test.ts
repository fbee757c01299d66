import type { LiveEvent } from '@coffer/contracts/events';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildTestApp, useTestApp } from '../../../test/app.ts';
import { openTestDatabase } from '../../../test/database.ts';
import { type EventStream, openEventStream } from '../../../test/event-streams.ts';
import {
  lastEmailTo,
  signedUpClient,
  staffClient,
  TestClient,
  tokenOf,
} from '../../../test/http.ts';
import type { Database } from '../../db/client.ts';
import { sha256Hex } from '../../platform/crypto.ts';
import { publishEvent } from '../../platform/events.ts';

let db: Database;
let app: FastifyInstance;
let baseUrl: string;

useTestApp(async (opened) => {
  ({ app, db } = opened);
  baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
});

function openStream(path: string, cookie: string | undefined, serverUrl = baseUrl) {
  return openEventStream(serverUrl, path, cookie);
}

/** Promptly: well under the stream's five-minute lifetime, with room for a busy machine. */
const promptlyMs = 3_000;

/** The id of the session a cookie carries. */
async function sessionIdOf(cookie: string | undefined): Promise<string> {
  const token = cookie?.split('=')[1] ?? '';
  const found = await db.query<{ id: string }>('SELECT id FROM sessions WHERE token_hash = $1', [
    sha256Hex(token),
  ]);
  const id = found.rows[0]?.id;
  if (!id) throw new Error('no session for that cookie');
  return id;
}

/** Announces a change for `userId` and waits until a stream that is still open hears it. */
async function announceTo(userId: string, witness: EventStream): Promise<LiveEvent> {
  const event: LiveEvent = { userId, topics: ['wallet'] };
  await db.transaction((tx) => publishEvent(tx, event));
  expect(await witness.nextEvent()).toEqual(event);
  return event;
}

describe('live events', () => {
  it('delivers a committed event to its customer and to staff, as an SSE stream', async () => {
    const customer = await signedUpClient(app);
    const admin = await staffClient(app, 'admin');
    const customerStream = await openStream('/api/v1/events', customer.client.cookie);
    const staffStream = await openStream('/api/v1/admin/events', admin.client.cookie);
    expect(customerStream.status).toBe(200);
    expect(customerStream.contentType).toMatch(/^text\/event-stream/);

    const event: LiveEvent = { userId: customer.user.id, topics: ['wallet'] };
    await db.transaction((tx) => publishEvent(tx, event));

    expect(await customerStream.nextEvent()).toEqual(event);
    expect(await staffStream.nextEvent()).toEqual(event);
    customerStream.close();
    staffStream.close();
  });

  it('says nothing about a rolled-back change', async () => {
    const customer = await signedUpClient(app);
    const stream = await openStream('/api/v1/events', customer.client.cookie);

    await db
      .transaction(async (tx) => {
        await publishEvent(tx, { userId: customer.user.id, topics: ['wallet'] });
        throw new Error('roll back');
      })
      .catch(() => {});
    const committed: LiveEvent = { userId: customer.user.id, topics: ['payouts'] };
    await db.transaction((tx) => publishEvent(tx, committed));

    // Notifications arrive in commit order: the first one heard is the committed one.
    expect(await stream.nextEvent()).toEqual(committed);
    stream.close();
  });

  it("never shows a customer another customer's events", async () => {
    const alice = await signedUpClient(app);
    const bob = await signedUpClient(app);
    const aliceStream = await openStream('/api/v1/events', alice.client.cookie);

    await db.transaction((tx) => publishEvent(tx, { userId: bob.user.id, topics: ['wallet'] }));
    const own: LiveEvent = { userId: alice.user.id, topics: ['transfers'] };
    await db.transaction((tx) => publishEvent(tx, own));

    expect(await aliceStream.nextEvent()).toEqual(own);
    expect(aliceStream.pending()).toEqual([]);
    aliceStream.close();
  });

  it('refuses visitors, and staff on the customer stream', async () => {
    const visitor = await openStream('/api/v1/events', undefined);
    expect(visitor.status).toBe(401);
    const support = await staffClient(app, 'support');
    const refused = await openStream('/api/v1/events', support.client.cookie);
    expect(refused.status).toBe(403);
    const customer = await signedUpClient(app);
    const notStaff = await openStream('/api/v1/admin/events', customer.client.cookie);
    expect(notStaff.status).toBe(404);
  });

  it('ends open streams when the server closes, so shutdown is not held up', async () => {
    const ownDb = await openTestDatabase();
    const ownApp = await buildTestApp(ownDb);
    const ownUrl = await ownApp.listen({ port: 0, host: '127.0.0.1' });
    const customer = await signedUpClient(ownApp);
    const response = await fetch(`${ownUrl}/api/v1/events`, {
      headers: { cookie: customer.client.cookie ?? '' },
    });
    expect(response.status).toBe(200);
    const body = response.text();
    await ownApp.close();
    await expect(body).resolves.toContain(': connected');
    await ownDb.close();
  });
});

describe('live events after a session is revoked', () => {
  it('ends the stream when its session logs out, and sends nothing more on it', async () => {
    const customer = await signedUpClient(app);
    const admin = await staffClient(app, 'admin');
    const stream = await openStream('/api/v1/events', customer.client.cookie);
    const staffStream = await openStream('/api/v1/admin/events', admin.client.cookie);
    const witness = await openStream(
      '/api/v1/admin/events',
      (await staffClient(app, 'admin')).client.cookie,
    );

    expect((await customer.client.post('/api/v1/auth/logout')).statusCode).toBe(204);
    expect((await admin.client.post('/api/v1/auth/logout')).statusCode).toBe(204);

    expect(await stream.endsWithin(promptlyMs)).toBe(true);
    expect(await staffStream.endsWithin(promptlyMs)).toBe(true);
    // The witness, still signed in, hears this change; the ended streams did not.
    await announceTo(customer.user.id, witness);
    expect(stream.pending()).toEqual([]);
    expect(staffStream.pending()).toEqual([]);
    witness.close();
  });

  it('ends only the revoked session’s stream, then every other one on “sign out other sessions”', async () => {
    const { client, body, user } = await signedUpClient(app);
    const phone = new TestClient(app);
    await phone.post('/api/v1/auth/login', { email: body.email, password: body.password });
    const tablet = new TestClient(app);
    await tablet.post('/api/v1/auth/login', { email: body.email, password: body.password });
    const laptopStream = await openStream('/api/v1/events', client.cookie);
    const phoneStream = await openStream('/api/v1/events', phone.cookie);
    const tabletStream = await openStream('/api/v1/events', tablet.cookie);

    const phoneSessionId = await sessionIdOf(phone.cookie);
    const revoked = await client.request('DELETE', `/api/v1/profile/sessions/${phoneSessionId}`);
    expect(revoked.statusCode).toBe(204);

    expect(await phoneStream.endsWithin(promptlyMs)).toBe(true);
    await announceTo(user.id, laptopStream);
    expect(await tabletStream.nextEvent()).toMatchObject({ userId: user.id });

    expect((await client.post('/api/v1/profile/sessions/revoke-others')).statusCode).toBe(204);
    expect(await tabletStream.endsWithin(promptlyMs)).toBe(true);
    await announceTo(user.id, laptopStream);
    expect(tabletStream.pending()).toEqual([]);
    laptopStream.close();
  });

  it('ends every stream of the account on a password change or reset', async () => {
    const { client, body } = await signedUpClient(app);
    const phone = new TestClient(app);
    await phone.post('/api/v1/auth/login', { email: body.email, password: body.password });
    const laptopStream = await openStream('/api/v1/events', client.cookie);
    const phoneStream = await openStream('/api/v1/events', phone.cookie);

    const changed = await client.post('/api/v1/profile/password', {
      currentPassword: body.password,
      newPassword: 'Copper-Meadow-Violin-77',
      endOtherSessions: true,
    });
    expect(changed.statusCode).toBe(204);
    // The laptop's session id was rotated: its old stream ends too, and it reconnects.
    expect(await laptopStream.endsWithin(promptlyMs)).toBe(true);
    expect(await phoneStream.endsWithin(promptlyMs)).toBe(true);

    const reconnected = await openStream('/api/v1/events', client.cookie);
    expect(reconnected.status).toBe(200);
    await new TestClient(app).post('/api/v1/auth/forgot-password', { email: body.email });
    await expect
      .poll(async () => (await lastEmailTo(db, body.email)).subject)
      .toMatch(/Reset your/);
    const reset = await new TestClient(app).post('/api/v1/auth/reset-password', {
      token: tokenOf((await lastEmailTo(db, body.email)).link),
      password: 'Another-Good-Pass-91',
    });
    expect(reset.statusCode).toBe(204);
    expect(await reconnected.endsWithin(promptlyMs)).toBe(true);
    expect(reconnected.pending()).toEqual([]);
  });

  it('ends a stream served by another API instance', async () => {
    const otherInstance = await buildTestApp(db);
    const otherUrl = await otherInstance.listen({ port: 0, host: '127.0.0.1' });
    const customer = await signedUpClient(app);
    const stream = await openStream('/api/v1/events', customer.client.cookie, otherUrl);
    expect(stream.status).toBe(200);

    expect((await customer.client.post('/api/v1/auth/logout')).statusCode).toBe(204);

    expect(await stream.endsWithin(promptlyMs)).toBe(true);
    await otherInstance.close();
  });
});

describe('live events after a change of role', () => {
  // A change of role ends the person's sessions (admin/role-grants.ts), and a revocation
  // ends every stream opened with them, on every instance (ADR 013). The test waits for
  // the end itself, bounded by its own timeout, well under a stream's five-minute lifetime.
  it("ends a staff member's streams, on every instance, when an admin changes or revokes the role", async () => {
    const otherInstance = await buildTestApp(db);
    const otherUrl = await otherInstance.listen({ port: 0, host: '127.0.0.1' });
    const admin = await staffClient(app, 'admin');
    for (const [role, newRole] of [
      ['admin', 'support'],
      ['support', 'customer'],
    ] as const) {
      const staff = await staffClient(app, role);
      const here = await openStream('/api/v1/admin/events', staff.client.cookie);
      const there = await openStream('/api/v1/admin/events', staff.client.cookie, otherUrl);
      expect([here.status, there.status]).toEqual([200, 200]);

      const changed = await admin.client.post(`/api/v1/admin/users/${staff.user.id}/role`, {
        role: newRole,
        reason: 'Moved to another team',
      });
      expect(changed.statusCode, changed.body).toBe(200);

      await Promise.all([here.ended(), there.ended()]);
      expect(here.pending()).toEqual([]);
    }
    await otherInstance.close();
  });
});
