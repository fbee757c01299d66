// The bulk payment benchmark (issue #32 item 4): a 10,000-line file paid by the bulk payer
// against pgbench's TPC-B on the same PostgreSQL server, while other customers send Quick
// Pays through the same app. Run it with `npm run bench:bulk` from the repository root.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../apps/api/src/app.ts';
import { loadConfig } from '../../apps/api/src/config.ts';
import { type Database, openPostgres } from '../../apps/api/src/db/client.ts';
import { migrate } from '../../apps/api/src/db/migrate.ts';
import {
  type BatchSize,
  firstBatchSize,
  payNextBatchAndRest,
  payNextSizedBatch,
} from '../../apps/api/src/features/bulk-payments/payer.ts';
import { type Customer, customerPassword, seedCustomers, totalBalanceMinor } from '../api/seed.ts';
import { integerFromEnv } from '../shared/env.ts';
import { measurePgbench } from '../shared/pgbench.ts';
import { databaseUrl, postmasterPid, recreateDatabase } from '../shared/postgres.ts';
import { describeMachine, table } from '../shared/report.ts';

const benchDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const config = {
  lines: integerFromEnv('BENCH_LINES', 10_000, { min: 1, max: 10_000 }),
  recipients: integerFromEnv('BENCH_RECIPIENTS', 500, { min: 1, max: 10_000 }),
  quickPaySenders: integerFromEnv('BENCH_QUICK_PAY_SENDERS', 8, { min: 2, max: 100 }),
  // Unset: the payer's own batch size, fitted to the time batches take (payer.ts).
  batchLines: process.env.BENCH_BATCH_LINES
    ? integerFromEnv('BENCH_BATCH_LINES', 200, { min: 1, max: 10_000 })
    : null,
  pgbenchClients: integerFromEnv('BENCH_PGBENCH_CLIENTS', 8, { min: 1, max: 64 }),
  pgbenchSeconds: integerFromEnv('BENCH_PGBENCH_SECONDS', 10, { min: 1, max: 600 }),
  quickPayAloneSeconds: integerFromEnv('BENCH_QUICK_PAY_ALONE_SECONDS', 5, { min: 1, max: 600 }),
  resultsFile: process.env.BENCH_RESULTS_FILE ?? path.join(benchDir, 'results', 'bulk.json'),
};
const targets = { postingsVsTpcb: 3, memoryGrowthMb: 100, quickPayP99Ms: 100 };
const rssSampleMs = 50;

type Session = { cookie: string; remoteAddress: string };

async function logIn(app: FastifyInstance, email: string, index: number): Promise<Session> {
  // A client address each: the login throttle counts per address.
  const remoteAddress = `10.77.${Math.floor(index / 250)}.${(index % 250) + 1}`;
  const answer = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    remoteAddress,
    payload: { email, password: customerPassword },
  });
  const cookie = answer.cookies.find((found) => found.name.endsWith('coffer_session'));
  if (answer.statusCode !== 200 || !cookie) throw new Error(`login failed: ${answer.body}`);
  return { cookie: `${cookie.name}=${cookie.value}`, remoteAddress };
}

/** Uploads the file, asks for its code, reads it from the outbox and confirms. */
async function confirmedFile(
  app: FastifyInstance,
  db: Database,
  sender: Customer,
  session: Session,
  recipients: Customer[],
): Promise<{ id: string; totalMinor: bigint }> {
  const lines = Array.from({ length: config.lines }, (_, index) => {
    const recipient = recipients[index % recipients.length];
    return `${recipient?.accountNumber},0.${String((index % 99) + 1).padStart(2, '0')},Bench ${index}`;
  });
  const headers = { cookie: session.cookie };
  const { remoteAddress } = session;
  const uploaded = await app.inject({
    method: 'POST',
    url: '/api/v1/bulk-payments',
    remoteAddress,
    headers: { ...headers, 'content-type': 'text/csv' },
    payload: ['recipient,amount,reference', ...lines].join('\r\n'),
  });
  if (uploaded.statusCode !== 201) throw new Error(`upload refused: ${uploaded.body}`);
  const { id, totalMinor } = uploaded.json();
  await app.inject({
    method: 'POST',
    url: '/api/v1/step-up/challenges',
    remoteAddress,
    headers,
    payload: { purpose: 'bulk_payment', bulkPaymentId: id },
  });
  const mail = await db.query<{ subject: string }>(
    `SELECT subject FROM outbox_emails WHERE to_address = $1 ORDER BY created_at DESC LIMIT 1`,
    [sender.email],
  );
  const stepUpCode = /(\d{6})/.exec(mail.rows[0]?.subject ?? '')?.[1];
  const confirmed = await app.inject({
    method: 'POST',
    url: `/api/v1/bulk-payments/${id}/confirm`,
    remoteAddress,
    headers: { ...headers, 'idempotency-key': `bench-bulk-confirm-${id}` },
    payload: { stepUpCode },
  });
  if (confirmed.statusCode !== 200) throw new Error(`confirm refused: ${confirmed.body}`);
  return { id, totalMinor: BigInt(totalMinor) };
}

/** Quick Pays between `senders`, one at a time per sender, until `isDone()`; their latencies. */
async function quickPayLoad(
  app: FastifyInstance,
  senders: { customer: Customer; session: Session }[],
  isDone: () => boolean,
  phase: string,
): Promise<{ latenciesMs: number[]; failed: number }> {
  const latenciesMs: number[] = [];
  let failed = 0;
  let sent = 0;
  await Promise.all(
    senders.map(async ({ session }, index) => {
      const recipient = senders[(index + 1) % senders.length]?.customer;
      while (!isDone()) {
        sent += 1;
        const startedMs = performance.now();
        const answer = await app.inject({
          method: 'POST',
          url: '/api/v1/transfers',
          remoteAddress: session.remoteAddress,
          headers: {
            cookie: session.cookie,
            'idempotency-key': `bench-bulk-${phase}-${index}-${sent}`,
          },
          payload: { recipient: recipient?.accountNumber, amount: '0.01' },
        });
        latenciesMs.push(performance.now() - startedMs);
        if (answer.statusCode !== 201) failed += 1;
      }
    }),
  );
  return { latenciesMs, failed };
}

function percentile(values: number[], fraction: number): number {
  const sorted = Float64Array.from(values).sort();
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil(fraction * sorted.length))) - 1] ?? 0;
}

async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('DATABASE_URL is not set: run it with npm run bench:bulk');
  const admin = openPostgres(serverUrl, 2);
  const serverPid = await postmasterPid(admin);
  const machine = await describeMachine(admin);

  console.log(
    `pgbench TPC-B, scale 10, ${config.pgbenchClients} clients, ${config.pgbenchSeconds} s…`,
  );
  const pgbench = await measurePgbench(
    { admin, url: serverUrl, pid: serverPid },
    {
      database: 'bench_bulk_pgbench',
      scale: 10,
      clients: config.pgbenchClients,
      threads: 2,
      warmupSeconds: 2,
      measuredSeconds: config.pgbenchSeconds,
      waitSampleIntervalMs: 100,
    },
  );

  const database = 'bench_bulk';
  await recreateDatabase(admin, database);
  const db = openPostgres(databaseUrl(serverUrl, database), 12);
  await migrate(db);
  const app = await buildApp({
    db,
    config: loadConfig({
      NODE_ENV: 'production',
      COFFER_SANDBOX: '0',
      COFFER_PUBLIC_URL: 'https://bench.coffer.test',
      COFFER_SECRET_KEY: 'coffer-bench-secret-key-for-the-bulk-benchmark',
      COFFER_MAIL: 'outbox-only',
      COFFER_LOG_LEVEL: 'warn',
      COFFER_STAFF_TWO_FACTOR: '0',
      COFFER_MONEY_REQUESTS_PER_MINUTE: '1000000',
      // The benchmark runs the payer itself, to time it.
      COFFER_BULK_PAYER: '0',
    }),
  });
  await app.ready();
  const senderCount = 2;
  const seeded = config.recipients + config.quickPaySenders + senderCount;
  console.log(`seeding ${seeded} customers…`);
  const customers = await seedCustomers(db, app.ledger, seeded);
  const senders = customers.slice(0, senderCount);
  const recipients = customers.slice(senderCount, senderCount + config.recipients);
  const quickPayers = await Promise.all(
    customers.slice(senderCount + config.recipients).map(async (customer, index) => ({
      customer,
      session: await logIn(app, customer.email, index + senderCount),
    })),
  );
  const moneyBefore = await totalBalanceMinor(db, customers);
  const payerDeps = { db, events: app.eventHub, config: app.config };

  /**
   * Uploads and confirms a file of `sender`, then pays it batch after batch, timed: back
   * to back (`payNextSizedBatch`: the ledger's speed), or as the app's payer does, resting
   * after each batch (`payNextBatchAndRest`); each batch's size as the payer fits it, or
   * BENCH_BATCH_LINES.
   */
  async function payFile(sender: Customer, index: number, doesRest: boolean) {
    const session = await logIn(app, sender.email, 200 + index);
    const checkStartedMs = performance.now();
    const file = await confirmedFile(app, db, sender, session, recipients);
    const checkMs = performance.now() - checkStartedMs;
    const startedMs = performance.now();
    let settled = 0;
    const size: BatchSize = config.batchLines ? { lines: config.batchLines } : firstBatchSize();
    const batchSizes: number[] = [];
    for (;;) {
      const asked = size.lines;
      const batch = doesRest
        ? await payNextBatchAndRest(payerDeps, size)
        : (await payNextSizedBatch(payerDeps, size)).settled;
      if (config.batchLines) size.lines = config.batchLines;
      if (batch === 0) break;
      batchSizes.push(asked);
      settled += batch;
    }
    const payMs = performance.now() - startedMs;
    return {
      file,
      settled,
      checkMs,
      payMs,
      postingsPerSecond: settled / (payMs / 1000),
      batchLines: {
        min: Math.min(...batchSizes),
        max: Math.max(...batchSizes),
        batches: batchSizes.length,
      },
    };
  }

  // Phase 1, alone: the payer's speed, and the memory it holds while it pays.
  console.log(`phase 1: a ${config.lines}-line file paid alone…`);
  global.gc?.();
  const rssBeforeMb = process.memoryUsage().rss / 1024 / 1024;
  let rssPeakMb = rssBeforeMb;
  const sampler = setInterval(() => {
    rssPeakMb = Math.max(rssPeakMb, process.memoryUsage().rss / 1024 / 1024);
  }, rssSampleMs);
  const alone = await payFile(senders[0] as Customer, 0, false);
  clearInterval(sampler);

  // The yardstick of phase 2: the same Quick Pays with no file paying, on the machine as
  // loaded as it is in this run (a shared machine's p99 moves by itself).
  console.log(`Quick Pays alone for ${config.quickPayAloneSeconds} s…`);
  const aloneUntilMs = performance.now() + config.quickPayAloneSeconds * 1000;
  const quickPaysAlone = await quickPayLoad(
    app,
    quickPayers,
    () => performance.now() >= aloneUntilMs,
    'alone',
  );

  // Phase 2, alongside: other customers' Quick Pays while a second file pays, as the app's
  // payer pays it (resting after each batch).
  console.log(
    `phase 2: a second file paid while ${config.quickPaySenders} customers send Quick Pays…`,
  );
  let isPaid = false;
  const load = quickPayLoad(app, quickPayers, () => isPaid, 'alongside');
  const alongside = await payFile(senders[1] as Customer, 1, true);
  isPaid = true;
  const quickPays = await load;

  const lines = await db.query<{ status: string; count: number }>(
    `SELECT status, count(*)::int AS count FROM bulk_payment_lines
      WHERE bulk_payment_id = ANY($1::uuid[]) GROUP BY status`,
    [[alone.file.id, alongside.file.id]],
  );
  const moneyAfter = await totalBalanceMinor(db, customers);
  const ratio = alone.postingsPerSecond / pgbench.summary.tps;
  const memoryGrowthMb = rssPeakMb - rssBeforeMb;
  const quickPayP99Ms = percentile(quickPays.latenciesMs, 0.99);
  const checks = [
    [
      'postings/s ÷ TPC-B tps',
      ratio.toFixed(2),
      `≥ ${targets.postingsVsTpcb}`,
      ratio >= targets.postingsVsTpcb,
    ],
    [
      'memory growth (MB)',
      memoryGrowthMb.toFixed(1),
      `< ${targets.memoryGrowthMb}`,
      memoryGrowthMb < targets.memoryGrowthMb,
    ],
    [
      'Quick Pay p99 (ms)',
      quickPayP99Ms.toFixed(1),
      `< ${targets.quickPayP99Ms}`,
      quickPayP99Ms < targets.quickPayP99Ms,
    ],
  ] as const;
  console.log(
    table([
      ['measure', 'value', 'target', 'verdict'],
      ...checks.map(([name, value, target, isMet]) => [
        name,
        value,
        target,
        isMet ? 'PASS' : 'MISS',
      ]),
    ]),
  );
  console.log(
    `alone: ${alone.settled} lines in ${(alone.payMs / 1000).toFixed(1)} s (${alone.postingsPerSecond.toFixed(0)} postings/s, ${alone.batchLines.batches} batches of ${alone.batchLines.min}–${alone.batchLines.max} lines; checked and confirmed in ${(alone.checkMs / 1000).toFixed(1)} s); ` +
      `alongside Quick Pay, resting after each batch: ${alongside.postingsPerSecond.toFixed(0)} postings/s; pgbench TPC-B ${pgbench.summary.tps.toFixed(0)} tps; ` +
      `${quickPays.latenciesMs.length} Quick Pays, ${quickPays.failed} refused, p50 ${percentile(quickPays.latenciesMs, 0.5).toFixed(1)} ms; ` +
      `Quick Pays with no file paying: p50 ${percentile(quickPaysAlone.latenciesMs, 0.5).toFixed(1)} ms, p99 ${percentile(quickPaysAlone.latenciesMs, 0.99).toFixed(1)} ms; ` +
      `lines ${JSON.stringify(lines.rows)}; money conserved: ${moneyBefore === moneyAfter}`,
  );
  const { resultsFile: _resultsFile, ...settings } = config;
  const results = {
    machine,
    config: settings,
    targets,
    pgbench: { tps: pgbench.summary.tps, p99Ms: pgbench.summary.p99Ms },
    bulk: {
      lines: alone.settled,
      payMs: alone.payMs,
      checkAndConfirmMs: alone.checkMs,
      postingsPerSecond: alone.postingsPerSecond,
      postingsPerSecondAlongsideQuickPay: alongside.postingsPerSecond,
      batchLines: alone.batchLines,
      batchLinesAlongsideQuickPay: alongside.batchLines,
      ratioToTpcb: ratio,
      rssBeforeMb,
      rssPeakMb,
      memoryGrowthMb,
      lineStatuses: lines.rows,
      isMoneyConserved: moneyBefore === moneyAfter,
    },
    quickPay: {
      count: quickPays.latenciesMs.length,
      refused: quickPays.failed,
      p50Ms: percentile(quickPays.latenciesMs, 0.5),
      p99Ms: quickPayP99Ms,
      withNoFilePaying: {
        count: quickPaysAlone.latenciesMs.length,
        refused: quickPaysAlone.failed,
        p50Ms: percentile(quickPaysAlone.latenciesMs, 0.5),
        p99Ms: percentile(quickPaysAlone.latenciesMs, 0.99),
      },
    },
  };
  await mkdir(path.dirname(config.resultsFile), { recursive: true });
  await writeFile(config.resultsFile, `${JSON.stringify(results, null, 2)}\n`);
  await app.close();
  await db.close();
  await admin.query(`DROP DATABASE ${database} WITH (FORCE)`);
  await admin.close();
}

await main();
