// The API through a database failover (docs/decisions/037): the HA set-up of `npm run ha`
// (etcd, two PostgreSQL nodes under Patroni, HAProxy), the API listening on real HTTP,
// and the primary killed outright. While there is no primary, money routes must answer
// 503 with Retry-After, never 500 and never hang; once Patroni has promoted the standby,
// the same app must pay, send open pages to refetch, announce the next payment and run
// its jobs, with nothing lost.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type HaCluster, startHaCluster } from '../../../scripts/ha-cluster.mjs';
import { buildTestApp } from '../test/app.ts';
import { createCustomer } from '../test/customers.ts';
import { openEventStream } from '../test/event-streams.ts';
import { newIdempotencyKey } from '../test/http.ts';
import { type Database, openPostgres } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { startMetricsServer } from './platform/metrics.ts';

// Above the pool's 10-second connection wait: a request still open after this has hung.
const requestWaitMaxMs = 20_000;
const retryPauseMs = 1_000;
// Patroni replaces a killed primary once its leader key expires (10 s in ha-cluster.mjs).
const failoverAttemptsMax = 90;
// The LISTEN connection retries every second, behind the pool.
const announcementWaitMs = 10_000;

let cluster: HaCluster;
let db: Database;
let app: FastifyInstance;
let apiUrl: string;
let metricsUrl: string;
let closeMetrics = async () => {};

beforeAll(async () => {
  cluster = await startHaCluster();
  db = openPostgres(cluster.url, 5);
  await migrate(db);
  // Every retry through the failover counts against the per-customer money limit.
  app = await buildTestApp(db, { COFFER_MONEY_REQUESTS_PER_MINUTE: '1000' });
  apiUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  const metricsServer = await startMetricsServer(app, { port: 0, host: '127.0.0.1' });
  metricsUrl = `http://127.0.0.1:${metricsServer.port}/metrics`;
  closeMetrics = metricsServer.close;
}, 180_000);

afterAll(async () => {
  await closeMetrics();
  await app?.close();
  await db?.close();
  await cluster?.stop();
}, 60_000);

/** The replication-lag series of a scrape: per standby, seconds and bytes behind. */
async function replicationLagSeries(): Promise<string[]> {
  const scraped = await (await fetch(metricsUrl)).text();
  return scraped.split('\n').filter((line) => line.startsWith('coffer_database_replication_lag'));
}

type Answer = { status: number; retryAfter: string | null; code: string | undefined };

async function pay(cookie: string, recipient: string, idempotencyKey: string): Promise<Answer> {
  const response = await fetch(`${apiUrl}/api/v1/transfers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, 'idempotency-key': idempotencyKey },
    body: JSON.stringify({ recipient, amount: '12.34' }),
    signal: AbortSignal.timeout(requestWaitMaxMs),
  });
  const body = (await response.json()) as { error?: { code: string } };
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    code: body.error?.code,
  };
}

it('answers 503 while the primary is gone, then pays, announces and runs jobs on the new one', async () => {
  const sender = await createCustomer(app, { balance: '100.00', level: 3 });
  const recipient = await createCustomer(app);
  const cookie = sender.client.cookie ?? '';
  const stream = await openEventStream(apiUrl, '/api/v1/events', recipient.client.cookie);
  expect((await pay(cookie, recipient.wallet.number, newIdempotencyKey())).status).toBe(201);
  expect((await stream.nextEvent()).userId).toBe(recipient.user.id);

  // The synchronous standby, as the primary reports it to the metrics: it has replayed the
  // payment or is a few kilobytes short of it.
  const primary = await cluster.primaryName();
  const standby = primary === 'node1' ? 'node2' : 'node1';
  const lagBefore = await replicationLagSeries();
  expect(lagBefore).toHaveLength(2);
  expect(lagBefore).toContainEqual(
    expect.stringMatching(
      new RegExp(`^coffer_database_replication_lag_seconds\\{standby="${standby}"\\} [\\d.e-]+$`),
    ),
  );
  const lagBytes = lagBefore.find((line) =>
    line.startsWith('coffer_database_replication_lag_bytes'),
  );
  expect(lagBytes).toMatch(
    new RegExp(`^coffer_database_replication_lag_bytes\\{standby="${standby}"\\} \\d+$`),
  );
  expect(Number(lagBytes?.split(' ')[1])).toBeLessThan(1024 * 1024);

  const killed = await cluster.killPrimary();
  // One payment, sent again under its key until it is answered: it is made exactly once.
  const key = newIdempotencyKey();
  const answers: Answer[] = [];
  for (let attempt = 0; attempt < failoverAttemptsMax; attempt += 1) {
    const answer = await pay(cookie, recipient.wallet.number, key);
    answers.push(answer);
    if (answer.status !== 503) break;
    await new Promise((resolve) => setTimeout(resolve, retryPauseMs));
  }
  const refused = answers.filter((answer) => answer.status === 503);
  expect(refused.length).toBeGreaterThan(0);
  for (const answer of refused)
    expect(answer).toMatchObject({ retryAfter: '5', code: 'unavailable' });
  expect(answers.at(-1)?.status).toBe(201);
  expect(await cluster.primaryName()).not.toBe(killed);
  // The new primary has no standby until the killed node comes back: no series, and so
  // no replication alert, but the standby is gone (Patroni's `list` shows it).
  expect(await replicationLagSeries()).toEqual([]);

  // Payments committed before the LISTEN connection is back are never announced: once it
  // is, the server ends the open stream, and the browser reconnects and refetches. The
  // stream opened again hears the next payment.
  expect(await stream.endsWithin(announcementWaitMs)).toBe(true);
  const reopened = await openEventStream(apiUrl, '/api/v1/events', recipient.client.cookie);
  expect((await pay(cookie, recipient.wallet.number, newIdempotencyKey())).status).toBe(201);
  expect((await reopened.nextEvent(announcementWaitMs)).userId).toBe(recipient.user.id);
  reopened.close();
  const paymentsMade = 3;

  // 100.00 less 12.34 for each payment, each made once; the ledger balances.
  expect((await app.ledger.balance(sender.wallet.id)).balanceMinor).toBe(
    10_000n - BigInt(paymentsMade) * 1_234n,
  );
  expect(await app.ledger.checkInvariants()).toEqual([]);

  // Two runners asking at once after the failover: every due job runs, each exactly once.
  const later = new Date(Date.now() + 24 * 60 * 60 * 1000);
  const ran = (await Promise.all([app.jobs.runDue(later), app.jobs.runDue(later)])).flat();
  expect(ran.length).toBeGreaterThan(0);
  expect(new Set(ran).size).toBe(ran.length);
}, 150_000);
