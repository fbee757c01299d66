import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.ts';
import { createCustomer, type TestCustomer } from '../../test/customers.ts';
import { openEventStream } from '../../test/event-streams.ts';
import { newIdempotencyKey, TestClient } from '../../test/http.ts';
import { quickPay } from '../../test/transfers.ts';
import type { Database } from '../db/client.ts';
import { startMetricsServer } from './metrics.ts';

let app: FastifyInstance;
let db: Database;
let apiUrl: string;
let metricsUrl: string;
let closeMetrics = async () => {};
useTestApp(async (opened) => {
  ({ app, db } = opened);
  const metricsServer = await startMetricsServer(app, { port: 0, host: '127.0.0.1' });
  closeMetrics = metricsServer.close;
  metricsUrl = `http://127.0.0.1:${metricsServer.port}/metrics`;
  apiUrl = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => closeMetrics());

type Sample = { name: string; labels: Record<string, string>; value: number };

/** Prometheus's text format, read back: one sample a line, comments left out. */
async function scrape(): Promise<Sample[]> {
  const response = await fetch(metricsUrl);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain; version=0.0.4');
  const samples: Sample[] = [];
  for (const line of (await response.text()).split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match?.[1] || match[3] === undefined) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) {
      if (key !== undefined && value !== undefined) labels[key] = value;
    }
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

/** The sample of `name` whose labels include `labels`; undefined when there is none. */
function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}) {
  return samples.find(
    (sample) =>
      sample.name === name &&
      Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  )?.value;
}

describe('the metrics', () => {
  let sender: TestCustomer;
  let recipient: TestCustomer;

  it('count requests by route pattern and status, money operations by outcome, refusals by code', async () => {
    sender = await createCustomer(app, { balance: '100.00' });
    recipient = await createCustomer(app);
    const key = newIdempotencyKey();
    const paid = await quickPay(
      sender.client,
      { recipient: recipient.wallet.number, amount: '1.00' },
      key,
    );
    expect(paid.statusCode).toBe(201);
    const replayed = await quickPay(
      sender.client,
      { recipient: recipient.wallet.number, amount: '1.00' },
      key,
    );
    expect(replayed.statusCode).toBe(201);
    const refused = await quickPay(sender.client, {
      recipient: recipient.wallet.number,
      amount: '99.50',
    });
    expect(refused.json().error.code).toBe('insufficient_funds');
    const unmatched = await new TestClient(app).get('/api/v1/no-such-route/4111111111111111');
    expect(unmatched.statusCode).toBe(404);

    const samples = await scrape();
    const transfers = { method: 'POST', route: '/api/v1/transfers' };
    expect(
      sampleValue(samples, 'coffer_http_request_duration_seconds_count', {
        ...transfers,
        status: '201',
      }),
    ).toBe(2);
    expect(
      sampleValue(samples, 'coffer_http_request_duration_seconds_count', {
        ...transfers,
        status: '409',
      }),
    ).toBe(1);
    const moneyOperations = (outcome: string) =>
      sampleValue(samples, 'coffer_money_operations_total', { kind: '/api/v1/transfers', outcome });
    expect([
      moneyOperations('done'),
      moneyOperations('replayed'),
      moneyOperations('refused'),
    ]).toEqual([1, 1, 1]);
    expect(sampleValue(samples, 'coffer_refusals_total', { code: 'insufficient_funds' })).toBe(1);
    expect(
      sampleValue(samples, 'coffer_http_request_duration_seconds_count', {
        route: 'unmatched',
        status: '404',
      }),
    ).toBeGreaterThanOrEqual(1);
    // A raw URL (here one carrying a card-like number) never becomes a label.
    expect(
      samples.some((sample) =>
        Object.values(sample.labels).some((value) => value.includes('4111')),
      ),
    ).toBe(false);
  });

  it('report open live-event streams, database connections and the event loop', async () => {
    const stream = await openEventStream(apiUrl, '/api/v1/events', sender.client.cookie);
    expect(stream.status).toBe(200);
    try {
      const samples = await scrape();
      expect(sampleValue(samples, 'coffer_live_event_streams_open')).toBe(1);
      expect(sampleValue(samples, 'coffer_database_connections_in_use')).toBeGreaterThanOrEqual(0);
      expect(sampleValue(samples, 'coffer_database_connections_waiting')).toBe(0);
      expect(sampleValue(samples, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThan(0);
      // Neither PGlite nor a server without standbys reports replication.
      expect(samples.some((sample) => sample.name.includes('replication'))).toBe(false);
    } finally {
      stream.close();
    }
    await expect
      .poll(async () => sampleValue(await scrape(), 'coffer_live_event_streams_open'))
      .toBe(0);
  });

  it("report scheduled jobs' lag and failures, the ledger check among them", async () => {
    await app.jobs.register({
      name: 'always-fails',
      intervalMs: 60 * 60 * 1000,
      run: () => Promise.reject(new Error('fails for the metrics test')),
    });
    const ran = await app.jobs.runDue();
    expect(ran).toEqual(expect.arrayContaining(['always-fails', 'ledger-invariants']));
    await db.query(
      "UPDATE scheduled_jobs SET next_run_at = now() - interval '90 seconds' WHERE name = 'loan-collection'",
    );
    const samples = await scrape();
    const job = (name: string) => ({ job_name: name });
    expect(sampleValue(samples, 'coffer_scheduled_job_failures_total', job('always-fails'))).toBe(
      1,
    );
    expect(sampleValue(samples, 'coffer_scheduled_job_last_run_failed', job('always-fails'))).toBe(
      1,
    );
    expect(
      sampleValue(samples, 'coffer_scheduled_job_last_run_failed', job('ledger-invariants')),
    ).toBe(0);
    expect(
      sampleValue(samples, 'coffer_scheduled_job_lag_seconds', job('loan-collection')),
    ).toBeGreaterThanOrEqual(90);
    expect(sampleValue(samples, 'coffer_scheduled_job_lag_seconds', job('ledger-invariants'))).toBe(
      0,
    );
  });

  it("report the email outbox's backlog", async () => {
    // Outside a sandbox without SMTP (COFFER_MAIL=outbox-only) the sign-ups' mail waits.
    const unsent = await db.query<{ count: number }>(
      'SELECT count(*)::int4 AS count FROM outbox_emails WHERE sent_at IS NULL',
    );
    expect(unsent.rows[0]?.count).toBeGreaterThan(0);
    const samples = await scrape();
    expect(sampleValue(samples, 'coffer_email_outbox_backlog')).toBe(unsent.rows[0]?.count);
    expect(sampleValue(samples, 'coffer_email_outbox_oldest_seconds')).toBeGreaterThanOrEqual(0);
  });

  it('report the problems of the last closed day of the books', async () => {
    expect(sampleValue(await scrape(), 'coffer_books_last_close_problems')).toBe(0);
    // Yesterday closed with two problems, as the close records them (a close is only ever
    // inserted); a day before today, so the close job finds nothing more to close.
    await db.query(
      `INSERT INTO book_closes (day, time_zone, starts_at, ends_at, line_count, is_balanced, problems)
       VALUES (current_date - 1, 'UTC', current_date - 1, current_date, 0, false, $1)`,
      [JSON.stringify(['USD does not balance', 'account 1 does not match its lines'])],
    );
    expect(sampleValue(await scrape(), 'coffer_books_last_close_problems')).toBe(2);
  });

  it('refuse a port in use, naming COFFER_METRICS_PORT', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const address = taken.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      await expect(startMetricsServer(app, { port, host: '127.0.0.1' })).rejects.toThrow(
        `COFFER_METRICS_PORT: cannot serve metrics on 127.0.0.1:${port} (EADDRINUSE: the port is in use)`,
      );
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
