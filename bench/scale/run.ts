// npm run bench:scale — a bank after a year at a million customers (issue #36 item 1):
// seeds (bench/scale/seed.ts) one million customers, ~24 million ledger lines (one merchant
// with a million, 99 with 100,000 each, most customers a dozen), five million notifications,
// a year of audit rows, a day of idempotency keys and 100,000 cards; then starts the API as
// an operator does (its own process, bench/api/api-server.ts) and measures, over HTTP and
// signed in, p50 and p99 of every page read, the million-line statement CSV (time and the
// API's memory growth) and a 10,000-line PDF statement. BENCH_SCALE_PERCENT shrinks every
// size for a quick try; BENCH_SCALE_REUSE=1 measures an already seeded database again.
// BENCH_SCALE_DATABASE=pglite measures the embedded default instead (issue #36 item 4), at
// a tenth of the size unless told: 100,000 customers and 2.4 million lines.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  type Database,
  embeddedDatabaseDirectory,
  openPglite,
  openPostgres,
} from '../../apps/api/src/db/client.ts';
import { migrate } from '../../apps/api/src/db/migrate.ts';
import { createSession } from '../../apps/api/src/platform/sessions.ts';
import { startApi } from '../api/api-server.ts';
import { benchDir, repoRoot } from '../api/config.ts';
import { benchAdminSessionToken } from '../shared/admin-session.ts';
import { integerFromEnv } from '../shared/env.ts';
import { readCpuSeconds, readRssMb, sleep } from '../shared/measure.ts';
import { databaseUrl, recreateDatabase } from '../shared/postgres.ts';
import { describeMachine, table } from '../shared/report.ts';
import { type ScaleSizes, seedScale } from './seed.ts';

const engine = process.env.BENCH_SCALE_DATABASE === 'pglite' ? 'pglite' : 'postgres';
const pgliteDataDir =
  process.env.BENCH_SCALE_DATA_DIR ?? path.join(os.tmpdir(), 'coffer-bench-scale-pglite');
const percent = integerFromEnv('BENCH_SCALE_PERCENT', engine === 'pglite' ? 10 : 100, {
  min: 1,
  max: 100,
});
const isReuse = process.env.BENCH_SCALE_REUSE === '1';
const requestsPerShape = integerFromEnv('BENCH_REQUESTS', 200, { min: 10, max: 100_000 });
const scaled = (count: number) => Math.max(1, Math.round((count * percent) / 100));
const sizes: ScaleSizes = {
  customers: scaled(1_000_000),
  merchants: 100,
  // The statement CSV's own size, kept whole when everything else is shrunk for a quick try.
  bigMerchantLines: integerFromEnv('BENCH_SCALE_BIG_MERCHANT_LINES', scaled(1_000_000), {
    min: 1,
    max: 10_000_000,
  }),
  merchantLines: scaled(100_000),
  notifications: scaled(5_000_000),
  auditEvents: scaled(1_000_000),
  idempotencyKeys: scaled(500_000),
  cards: scaled(100_000),
};
const slowReadRequests = 20;
const bigMerchantLabel = `${sizes.bigMerchantLines.toLocaleString('en-US')}-line merchant`;
const targets = {
  // The embedded database's own target (item 4): 100 ms at a tenth of the size.
  pageReadP99Ms: engine === 'pglite' ? 100 : 50,
  csvSeconds: 30,
  csvRssGrowthMb: 50,
  pdfSeconds: 5,
  apiHealthySeconds: 30,
};
const databaseName = 'bench_scale';
const cookieName = '__Host-coffer_session';

type Shape = {
  name: string;
  who: 'customer' | 'merchant' | 'admin';
  path: (index: number) => string;
};

/** A fresh (or, with BENCH_SCALE_REUSE=1, the seeded) database of the engine measured. */
async function openBenchDatabase(serverUrl: string | undefined): Promise<Database> {
  if (engine === 'pglite') {
    if (!isReuse) await rm(pgliteDataDir, { recursive: true, force: true });
    return openPglite(embeddedDatabaseDirectory(pgliteDataDir));
  }
  if (!serverUrl) throw new Error('DATABASE_URL is not set: run `npm run bench:scale`');
  if (!isReuse) {
    const server = openPostgres(serverUrl, 1);
    await recreateDatabase(server, databaseName);
    await server.close();
  }
  return openPostgres(databaseUrl(serverUrl, databaseName), 4);
}

async function seedIfAsked(
  serverUrl: string | undefined,
): Promise<{ db: Database; seedSeconds: number | null }> {
  const db = await openBenchDatabase(serverUrl);
  await migrate(db);
  if (isReuse) {
    // Every job runs again at the API's start, as after a first start: measured, then done.
    await db.query('UPDATE scheduled_jobs SET next_run_at = now()');
    const seeded = await db.query<{ seconds: number }>('SELECT seconds FROM bench_scale_seed');
    return { db, seedSeconds: seeded.rows[0]?.seconds ?? null };
  }
  console.log(`seeding (${percent}% of full size)…`);
  const startedAt = performance.now();
  await seedScale(db, sizes);
  const seedSeconds = (performance.now() - startedAt) / 1000;
  // Kept with the data, for the results of a later BENCH_SCALE_REUSE=1 run.
  await db.query('CREATE TABLE bench_scale_seed AS SELECT $1::float8 AS seconds', [seedSeconds]);
  return { db, seedSeconds };
}

/** The k-th customer's user and wallet, counting wallets by account number from 1. */
async function wallet(db: Database, k: number) {
  const found = await db.query<{ user_id: string; account_id: string }>(
    `SELECT owner_user_id AS user_id, id AS account_id FROM accounts
      WHERE kind = 'customer' AND number = lpad(($1::bigint + 1000000000)::text, 10, '0')`,
    [k],
  );
  const row = found.rows[0];
  if (!row) throw new Error(`no wallet number ${k}`);
  return row;
}

async function cookieOf(db: Database, userId: string): Promise<string> {
  const { token } = await createSession(db, { userId, userAgent: 'bench', ipAddress: '127.0.0.1' });
  return `${cookieName}=${token}`;
}

/** Waits until every scheduled job has run once since `since`; answers how long each took. */
async function waitForJobs(db: Database, since: Date): Promise<Record<string, number>> {
  for (;;) {
    const jobs = await db.query<{ name: string; seconds: number | null; is_done: boolean }>(
      `SELECT name, extract(epoch FROM last_finished_at - last_started_at)::float8 AS seconds,
              coalesce(last_finished_at >= last_started_at AND last_started_at >= $1, false) AS is_done
         FROM scheduled_jobs`,
      [since],
    );
    if (jobs.rows.length > 0 && jobs.rows.every((job) => job.is_done)) {
      return Object.fromEntries(
        jobs.rows.map((job) => [job.name, Number(job.seconds?.toFixed(2))]),
      );
    }
    await sleep(1000);
  }
}

/**
 * Waits until the API process has been idle for two seconds (PGlite is one process's
 * database, so its jobs table cannot be read from here while the API runs).
 */
async function waitForIdle(pid: number): Promise<number> {
  const startedMs = performance.now();
  let cpuSeconds = readCpuSeconds(pid) ?? 0;
  for (;;) {
    await sleep(2000);
    const now = readCpuSeconds(pid) ?? 0;
    if (now - cpuSeconds < 0.1) return (performance.now() - startedMs) / 1000 - 2;
    cpuSeconds = now;
  }
}

const percentile = (sorted: number[], fraction: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))] ??
  Number.NaN;

async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  const { db, seedSeconds } = await seedIfAsked(serverUrl);
  if (seedSeconds !== null) console.log(`seeded in ${seedSeconds.toFixed(0)} s`);
  const counts = await db.query<{ customers: number; lines: number; notifications: number }>(
    `SELECT (SELECT count(*) FROM users WHERE role = 'customer')::int AS customers,
            (SELECT count(*) FROM journal_lines)::int AS lines,
            (SELECT count(*) FROM notifications)::int AS notifications`,
  );
  console.log(counts.rows[0]);

  const bigMerchant = await wallet(db, 1);
  const merchant = await wallet(db, 2);
  const customers = await Promise.all(
    Array.from({ length: 50 }, (_, index) =>
      wallet(db, sizes.merchants + 1 + ((index * 7_919) % (sizes.customers - sizes.merchants))),
    ),
  );
  const cookies = {
    admin: `${cookieName}=${await benchAdminSessionToken(db, `bench-scale-${Date.now()}@coffer.test`)}`,
    bigMerchant: await cookieOf(db, bigMerchant.user_id),
    merchant: await cookieOf(db, merchant.user_id),
    customers: await Promise.all(customers.map((customer) => cookieOf(db, customer.user_id))),
  };
  // Halfway down the big merchant's history: where a deep page's cursor points.
  const middle = await db.query<{ id: bigint }>(
    'SELECT id FROM journal_lines WHERE account_id = $1 ORDER BY id DESC OFFSET $2 LIMIT 1',
    [bigMerchant.account_id, Math.floor(sizes.bigMerchantLines / 2)],
  );
  const deepCursor = `${middle.rows[0]?.id ?? ''}~`;
  const daysAgo = (days: number) =>
    new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
  // About 10,000 lines of the second merchant's, for the PDF.
  const pdfFrom = daysAgo(Math.min(365, Math.round((10_000 / sizes.merchantLines) * 365) - 1));
  const pdfLines = await db.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
      WHERE l.account_id = $1 AND e.created_at >= $2::date`,
    [merchant.account_id, pdfFrom],
  );
  const machine = engine === 'postgres' ? await describeMachine(db) : null;
  if (engine === 'pglite') await db.close();

  const apiStartedAt = new Date();
  const startedMs = performance.now();
  const api = await startApi({
    databaseUrl: engine === 'postgres' && serverUrl ? databaseUrl(serverUrl, databaseName) : null,
    dataDir: engine === 'pglite' ? pgliteDataDir : undefined,
    poolSize: 10,
    webDistDir: path.join(repoRoot, 'apps/web/dist'),
    cpuProfileDir: null,
  });
  try {
    const healthySeconds = (performance.now() - startedMs) / 1000;
    console.log(`API healthy after ${healthySeconds.toFixed(1)} s; waiting for its start-up jobs…`);
    const jobSeconds =
      engine === 'postgres'
        ? await waitForJobs(db, apiStartedAt)
        : { allJobsUntilIdle: await waitForIdle(api.pid) };
    console.log('start-up jobs (s):', jobSeconds);

    async function get(pathAndQuery: string, cookie: string): Promise<number> {
      const startedAt = performance.now();
      const response = await fetch(`${api.baseUrl}${pathAndQuery}`, { headers: { cookie } });
      await response.arrayBuffer();
      const ms = performance.now() - startedAt;
      if (response.status !== 200) throw new Error(`${pathAndQuery}: ${response.status}`);
      return ms;
    }
    const cookieFor = (shape: Shape, index: number) =>
      shape.who === 'admin'
        ? cookies.admin
        : shape.who === 'merchant'
          ? cookies.bigMerchant
          : (cookies.customers[index % cookies.customers.length] ?? '');

    const month = new Date(Date.now() - 40 * 86_400_000).toISOString().slice(0, 7);
    const dashboard = [
      '/api/v1/auth/session',
      '/api/v1/wallet',
      '/api/v1/wallet/balance-history?days=30',
      '/api/v1/wallet/spending',
      '/api/v1/wallet/transactions',
      '/api/v1/wallet/deposits',
      '/api/v1/notifications',
    ];
    const searchTerms = ['walker', 'gmail', 'Olivia Tanaka', '48213@', 'son'];
    const queues = ['deposits', 'payouts', 'kyc', 'disputes', 'cards', 'loans', 'support'];
    const shapes: Shape[] = [
      ...dashboard.map(
        (path): Shape => ({ name: `customer ${path}`, who: 'customer', path: () => path }),
      ),
      ...dashboard.map(
        (path): Shape => ({
          name: `${bigMerchantLabel} ${path}`,
          who: 'merchant',
          path: () => path,
        }),
      ),
      {
        name: 'merchant transactions, deep page',
        who: 'merchant',
        path: () => `/api/v1/wallet/transactions?cursor=${deepCursor}`,
      },
      {
        name: `merchant statement ${month} (json)`,
        who: 'merchant',
        path: () => `/api/v1/statements?month=${month}`,
      },
      {
        name: 'admin search',
        who: 'admin',
        path: (index) =>
          `/api/v1/admin/users?search=${encodeURIComponent(searchTerms[index % searchTerms.length] ?? '')}`,
      },
      {
        name: 'admin customer page (merchant)',
        who: 'admin',
        path: () => `/api/v1/admin/users/${bigMerchant.user_id}`,
      },
      {
        name: 'admin merchant transactions',
        who: 'admin',
        path: () => `/api/v1/admin/users/${bigMerchant.user_id}/transactions`,
      },
      { name: 'staff home counts', who: 'admin', path: () => '/api/v1/admin/queues' },
      ...queues.map(
        (queue): Shape => ({
          name: `queue ${queue}`,
          who: 'admin',
          path: () => `/api/v1/admin/queues/${queue}`,
        }),
      ),
    ];

    const reads = [];
    for (const shape of shapes) {
      const warmupMs: number[] = [];
      for (let warmup = 0; warmup < 5; warmup += 1) {
        warmupMs.push(await get(shape.path(warmup), cookieFor(shape, warmup)));
      }
      // A read far over its target is measured fewer times: its p99 is its slowest then.
      const isSlow = Math.min(...warmupMs) > 10 * targets.pageReadP99Ms;
      const times = isSlow ? slowReadRequests : requestsPerShape;
      const latencies: number[] = [];
      for (let index = 0; index < times; index += 1) {
        latencies.push(await get(shape.path(index), cookieFor(shape, index)));
      }
      latencies.sort((a, b) => a - b);
      const read = {
        name: shape.name,
        requests: times,
        p50Ms: Number(percentile(latencies, 0.5).toFixed(1)),
        p99Ms: Number(percentile(latencies, 0.99).toFixed(1)),
      };
      reads.push({ ...read, isWithinTarget: read.p99Ms < targets.pageReadP99Ms });
      console.log(`${read.name}: p50 ${read.p50Ms} ms, p99 ${read.p99Ms} ms`);
    }

    /** A download read as it arrives; the API's RSS sampled throughout. */
    async function download(pathAndQuery: string, cookie: string) {
      const baselineMb = readRssMb(api.pid);
      let peakMb = baselineMb;
      const sampler = setInterval(() => {
        peakMb = Math.max(peakMb, readRssMb(api.pid));
      }, 20);
      const startedAt = performance.now();
      const response = await fetch(`${api.baseUrl}${pathAndQuery}`, { headers: { cookie } });
      if (response.status !== 200 || !response.body)
        throw new Error(`${pathAndQuery}: ${response.status}`);
      let bytes = 0;
      let lines = 0;
      for await (const chunk of response.body) {
        bytes += chunk.length;
        for (const byte of chunk) if (byte === 0x0a) lines += 1;
      }
      const seconds = (performance.now() - startedAt) / 1000;
      clearInterval(sampler);
      return {
        seconds: Number(seconds.toFixed(2)),
        bytes,
        lines,
        rssGrowthMb: Number((peakMb - baselineMb).toFixed(1)),
      };
    }
    const today = new Date().toISOString().slice(0, 10);
    const csv = await download(
      `/api/v1/statements?from=${daysAgo(365)}&to=${today}&format=csv`,
      cookies.bigMerchant,
    );
    console.log(
      `statement CSV, ${bigMerchantLabel}, a year: ${csv.lines} lines in ${csv.seconds} s, RSS +${csv.rssGrowthMb} MB`,
    );
    const pdf = await download(
      `/api/v1/statements?from=${pdfFrom}&to=${today}&format=pdf`,
      cookies.merchant,
    );
    console.log(
      `statement PDF, ${pdfLines.rows[0]?.count} lines: ${pdf.seconds} s (${(pdf.bytes / 1024).toFixed(0)} KiB), RSS +${pdf.rssGrowthMb} MB`,
    );

    const result = {
      engine,
      percent,
      sizes,
      counts: counts.rows[0],
      seedSeconds,
      apiHealthySeconds: Number(healthySeconds.toFixed(1)),
      isApiHealthyWithinTarget: healthySeconds < targets.apiHealthySeconds,
      startUpJobSeconds: jobSeconds,
      reads,
      statementCsv: {
        ...csv,
        isWithinTarget:
          csv.seconds < targets.csvSeconds && csv.rssGrowthMb < targets.csvRssGrowthMb,
      },
      statementPdf: {
        ...pdf,
        statementLines: pdfLines.rows[0]?.count,
        isWithinTarget: pdf.seconds < targets.pdfSeconds,
      },
      targets,
      loadAverage: os.loadavg(),
      machine,
    };
    console.log(
      `\n${table([
        ['read', 'p50 ms', 'p99 ms', `p99 < ${targets.pageReadP99Ms}`],
        ...reads.map((read) => [
          read.name,
          read.p50Ms.toFixed(1),
          read.p99Ms.toFixed(1),
          read.isWithinTarget ? 'yes' : 'MISS',
        ]),
      ])}\nload average ${os
        .loadavg()
        .map((load) => load.toFixed(2))
        .join(' ')}`,
    );
    const resultsFile =
      process.env.BENCH_RESULTS_FILE ??
      path.join(benchDir, 'results', engine === 'pglite' ? 'scale-pglite.json' : 'scale.json');
    await mkdir(path.dirname(resultsFile), { recursive: true });
    await writeFile(resultsFile, `${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await api.stop();
    if (engine === 'postgres') await db.close();
  }
}

await main();
