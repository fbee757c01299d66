// Two API instances on one PostgreSQL, as behind a load balancer: two real HTTP servers,
// each with its own connection pool and its own LISTEN connection. Whatever one
// instance counts or announces, the other must see (docs/SEVERAL-INSTANCES.md).
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../test/app.ts';
import { createCustomer, type TestCustomer } from '../test/customers.ts';
import { createServerDatabase } from '../test/database.ts';
import { openEventStream } from '../test/event-streams.ts';
import { newIdempotencyKey } from '../test/http.ts';
import { type Database, openPostgres } from './db/client.ts';
import { migrate } from './db/migrate.ts';

const moneyRequestsPerMinute = 6;

type Instance = { app: FastifyInstance; db: Database; url: string };

let dropDatabase: () => Promise<void>;
let instanceA: Instance;
let instanceB: Instance;

async function startInstance(databaseUrl: string): Promise<Instance> {
  const db = openPostgres(databaseUrl, 5);
  const app = await buildTestApp(db, {
    COFFER_MONEY_REQUESTS_PER_MINUTE: String(moneyRequestsPerMinute),
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, db, url };
}

beforeAll(async () => {
  const serverDatabase = await createServerDatabase();
  dropDatabase = serverDatabase.drop;
  const migrating = openPostgres(serverDatabase.url, 1);
  await migrate(migrating);
  await migrating.close();
  instanceA = await startInstance(serverDatabase.url);
  instanceB = await startInstance(serverDatabase.url);
});

afterAll(async () => {
  for (const instance of [instanceA, instanceB]) {
    await instance?.app.close();
    await instance?.db.close();
  }
  await dropDatabase?.();
});

type ErrorBody = { error?: { code: string; message: string } };

/** A JSON POST over real HTTP to one instance, from 127.0.0.1 like every other here. */
async function post(
  instance: Instance,
  path: string,
  body: object,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: ErrorBody }> {
  const response = await fetch(`${instance.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as ErrorBody };
}

/** `count` requests taking turns between the instances, A first; their statuses. */
async function alternating(
  count: number,
  send: (instance: Instance) => Promise<{ status: number }>,
): Promise<number[]> {
  const statuses: number[] = [];
  for (let index = 0; index < count; index += 1) {
    statuses.push((await send(index % 2 === 0 ? instanceA : instanceB)).status);
  }
  return statuses;
}

function quickPayThroughA(sender: TestCustomer, recipient: TestCustomer, amount: string) {
  return post(
    instanceA,
    '/api/v1/transfers',
    { recipient: recipient.wallet.number, amount },
    { cookie: sender.client.cookie ?? '', 'idempotency-key': newIdempotencyKey() },
  );
}

describe('two API instances on one PostgreSQL', () => {
  it('delivers a payment made on instance A to the stream its recipient opened on B', async () => {
    const sender = await createCustomer(instanceA.app, { balance: '50.00', level: 3 });
    const recipient = await createCustomer(instanceA.app);
    const stream = await openEventStream(instanceB.url, '/api/v1/events', recipient.client.cookie);
    expect(stream.status).toBe(200);

    expect((await quickPayThroughA(sender, recipient, '12.34')).status).toBe(201);

    const event = await stream.nextEvent();
    expect(event.userId).toBe(recipient.user.id);
    expect(event.topics).toContain('wallet');
    stream.close();
  });

  it("ends B's streams when B listens again after losing its LISTEN connection", async () => {
    // A database restart or failover: payments committed before B listens again are never
    // announced on B, so its streams end and the browsers reconnect and refetch.
    const sender = await createCustomer(instanceA.app, { balance: '50.00', level: 3 });
    const recipient = await createCustomer(instanceA.app);
    const cookie = recipient.client.cookie;
    const stream = await openEventStream(instanceB.url, '/api/v1/events', cookie);
    expect(stream.status).toBe(200);
    await instanceA.db.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND query LIKE 'LISTEN %'`,
    );
    expect(await stream.endsWithin(10_000)).toBe(true);

    const reopened = await openEventStream(instanceB.url, '/api/v1/events', cookie);
    expect((await quickPayThroughA(sender, recipient, '1.00')).status).toBe(201);
    expect((await reopened.nextEvent()).userId).toBe(recipient.user.id);
    reopened.close();
  });

  it('enforces one per-customer money limit across both instances', async () => {
    const customer = await createCustomer(instanceA.app);
    // An empty body is refused after the limit counts it: every request counts.
    const send = (instance: Instance) =>
      post(
        instance,
        '/api/v1/transfers',
        {},
        {
          cookie: customer.client.cookie ?? '',
          'idempotency-key': newIdempotencyKey(),
        },
      );

    const allowed = await alternating(moneyRequestsPerMinute, send);
    expect(allowed.filter((status) => status === 429)).toEqual([]);
    const refused = [await send(instanceA), await send(instanceB)];
    expect(refused.map((answer) => answer.status)).toEqual([429, 429]);
    expect(refused[1]?.body.error?.code).toBe('rate_limited');
  });

  it('enforces one per-address limit across both instances', async () => {
    // Five requests per address in 15 minutes (rateLimits.forgotPassword).
    const send = (instance: Instance) =>
      post(instance, '/api/v1/auth/forgot-password', { email: 'nobody@example.com' });
    const allowed = await alternating(5, send);
    expect(allowed.filter((status) => status === 429)).toEqual([]);
    expect([(await send(instanceA)).status, (await send(instanceB)).status]).toEqual([429, 429]);
  });

  it('locks a login after five failures spread over both instances, on both', async () => {
    const customer = await createCustomer(instanceA.app);
    const login = (instance: Instance, password: string) =>
      post(instance, '/api/v1/auth/login', { email: customer.body.email, password });

    const failures = await alternating(5, (instance) => login(instance, 'Wrong-Password-123'));
    expect(failures).toEqual([401, 401, 401, 401, 401]);
    for (const instance of [instanceB, instanceA]) {
      const locked = await login(instance, customer.body.password);
      expect(locked.status).toBe(429);
      expect(locked.body.error?.message).toBe('Too many attempts. Please try again later.');
    }
  });
});
