import type { LiveEvent } from '@coffer/contracts/events';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/app.ts';
import { openTestDatabase } from '../../../test/database.ts';
import { signedUpClient, staffClient } from '../../../test/http.ts';
import type { Database } from '../../db/client.ts';
import { publishEvent } from '../../platform/events.ts';

let db: Database;
let app: FastifyInstance;
let baseUrl: string;

beforeAll(async () => {
  db = await openTestDatabase();
  app = await buildTestApp(db);
  baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await app.close();
  await db.close();
});

type Stream = {
  status: number;
  contentType: string | null;
  /** Resolves with the next `change` event, or rejects after `timeoutMs`. */
  nextEvent(timeoutMs?: number): Promise<LiveEvent>;
  /** The events received so far and not yet taken. */
  pending(): LiveEvent[];
  close(): void;
};

/** Opens an SSE stream over real HTTP and parses its messages as they arrive. */
async function openStream(path: string, cookie: string | undefined): Promise<Stream> {
  const hangUp = new AbortController();
  const response = await fetch(`${baseUrl}${path}`, {
    headers: cookie ? { cookie } : {},
    signal: hangUp.signal,
  });
  const received: LiveEvent[] = [];
  const waiters: ((event: LiveEvent) => void)[] = [];
  if (response.ok && response.body) {
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    void (async () => {
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: '', done: true }));
        if (done) return;
        buffer += value;
        const messages = buffer.split('\n\n');
        buffer = messages.pop() ?? '';
        for (const message of messages) {
          const data = message.split('\n').find((line) => line.startsWith('data: '));
          if (!message.includes('event: change') || !data) continue;
          const event = JSON.parse(data.slice('data: '.length)) as LiveEvent;
          const waiter = waiters.shift();
          if (waiter) waiter(event);
          else received.push(event);
        }
      }
    })();
  }
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    nextEvent(timeoutMs = 5_000) {
      const queued = received.shift();
      if (queued) return Promise.resolve(queued);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no event arrived')), timeoutMs);
        waiters.push((event) => {
          clearTimeout(timer);
          resolve(event);
        });
      });
    },
    pending: () => received.splice(0),
    close: () => hangUp.abort(),
  };
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
