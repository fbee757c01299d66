// npm run bench:admin — seeds 1,000,000 customers (names and addresses from common first
// names, surnames and mail providers) on a fresh PostgreSQL database and measures the
// staff customer list and search over real HTTP: p50 and p99 per query shape, the server's
// and this process's CPU per request, and the Total Users count on its own.
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CustomerList, customerListSchema } from '@coffer/contracts/admin';
import { buildApp } from '../../apps/api/src/app.ts';
import { loadConfig } from '../../apps/api/src/config.ts';
import { type Database, openPostgres } from '../../apps/api/src/db/client.ts';
import { migrate } from '../../apps/api/src/db/migrate.ts';
import { countUsers } from '../../apps/api/src/features/admin/queries.ts';
import { benchAdminSessionToken } from '../shared/admin-session.ts';
import { integerFromEnv } from '../shared/env.ts';
import {
  databaseUrl,
  postmasterPid,
  recreateDatabase,
  startUsageMeter,
  type Usage,
} from '../shared/postgres.ts';
import { describeMachine, table } from '../shared/report.ts';
import { firstNames, seedCustomers, surnames } from './seed.ts';

const userCount = integerFromEnv('BENCH_USERS', 1_000_000, { min: 1_000, max: 10_000_000 });
const requestsPerShape = integerFromEnv('BENCH_REQUESTS', 300, { min: 10, max: 100_000 });
const countTimings = 300;
const p99TargetMs = 50;
const resultsFile = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../results/admin.json',
);

const serverUrl = process.env.DATABASE_URL;
if (!serverUrl) throw new Error('DATABASE_URL is not set: run through `npm run bench:admin`');

const databaseName = 'bench_admin';
const server = openPostgres(serverUrl, 1);
await recreateDatabase(server, databaseName);
await server.close();
const db = openPostgres(databaseUrl(serverUrl, databaseName), 8);
await migrate(db);
const serverPid = await postmasterPid(db);

console.log(`seeding ${userCount.toLocaleString('en-US')} users with wallets…`);
const seedStartedAt = performance.now();
await seedCustomers(db, userCount);
// A bulk load leaves every row without hint bits: the first query to read a page would
// write it back, and that write lands in whichever request comes first. A live database
// has long been vacuumed; so is this one before anything is measured.
await db.query('VACUUM ANALYZE');
const seedSeconds = (performance.now() - seedStartedAt) / 1000;
console.log(`seeded in ${seedSeconds.toFixed(1)} s`);

const token = await benchAdminSessionToken(db, 'bench-admin@coffer.test');

const config = loadConfig({
  NODE_ENV: 'test',
  COFFER_SANDBOX: '0',
  COFFER_LOG_LEVEL: 'warn',
  COFFER_DATA_DIR: path.join(os.tmpdir(), 'coffer-bench-unused'),
  COFFER_SECRET_KEY: 'coffer-bench-secret-key-not-for-production',
  COFFER_MAIL: 'outbox-only',
  // The benchmark's admin has a session and no authenticator.
  COFFER_STAFF_TWO_FACTOR: '0',
});
const app = await buildApp({ config, db });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

async function timed(pathAndQuery: string): Promise<{ ms: number; body: CustomerList }> {
  const startedAt = performance.now();
  const response = await fetch(`${baseUrl}${pathAndQuery}`, {
    headers: { cookie: `coffer_session=${token}` },
  });
  const json: unknown = await response.json();
  const ms = performance.now() - startedAt;
  if (response.status !== 200)
    throw new Error(`${pathAndQuery}: ${response.status} ${JSON.stringify(json)}`);
  return { ms, body: customerListSchema.parse(json) };
}

function percentile(sortedMs: number[], fraction: number): number {
  const index = Math.min(sortedMs.length - 1, Math.ceil(fraction * sortedMs.length) - 1);
  return sortedMs[Math.max(0, index)] ?? Number.NaN;
}

const round2 = (value: number) => Number(value.toFixed(2));

type Timing = { p50Ms: number; p99Ms: number; usage: Usage; matchesPerPage: number };

/** `run` called `times` times in a row, after 20 unmeasured calls; latency and CPU. */
async function measure(
  times: number,
  run: (index: number) => Promise<{ ms: number; matches: number }>,
): Promise<Timing> {
  for (let warmup = 0; warmup < 20; warmup += 1) await run(times + warmup);
  const meter = await startUsageMeter(db, serverPid);
  const cpuBefore = process.cpuUsage();
  const latencies: number[] = [];
  let matches = 0;
  for (let index = 0; index < times; index += 1) {
    const done = await run(index);
    latencies.push(done.ms);
    matches += done.matches;
  }
  await meter.markEnd();
  const cpu = process.cpuUsage(cpuBefore);
  latencies.sort((a, b) => a - b);
  return {
    p50Ms: round2(percentile(latencies, 0.5)),
    p99Ms: round2(percentile(latencies, 0.99)),
    usage: await meter.finish(times, (cpu.user + cpu.system) / 1e6),
    matchesPerPage: round2(matches / times),
  };
}

// A cursor deep into the list, so paging is measured away from the first page too.
let deepCursor: string | null = null;
let page = await timed('/api/v1/admin/users?limit=100');
for (let pageIndex = 0; pageIndex < 50 && page.body.nextCursor; pageIndex += 1) {
  deepCursor = page.body.nextCursor;
  page = await timed(`/api/v1/admin/users?limit=100&cursor=${deepCursor}`);
}

const pick = <T>(list: T[], index: number): T => list[index % list.length] as T;
const search = (term: string) => `/api/v1/admin/users?search=${encodeURIComponent(term)}`;

/** Each shape's terms rotate with the request's index, so no answer is served twice in a row. */
const shapes: { name: string; path: (index: number) => string }[] = [
  { name: 'list, first page (25)', path: () => '/api/v1/admin/users' },
  { name: 'list, 5,000 deep (cursor)', path: () => `/api/v1/admin/users?cursor=${deepCursor}` },
  {
    // "Olivia Tanaka": a handful of customers among a million.
    name: 'search: full name',
    path: (index) => search(`${pick(firstNames, index * 7)} ${pick(surnames, index * 13)}`),
  },
  {
    // "48213@": the customer whose address ends in that number, and a few like it.
    name: 'search: email substring',
    path: (index) => search(`${1_000 + ((index * 3_331) % (userCount - 1_000))}@`),
  },
  {
    // "Tanaka": about 1 in 300 customers, too few among the newest to fill a page.
    name: 'search: surname',
    path: (index) => search(pick(surnames, index * 17).toLowerCase()),
  },
  {
    name: 'search: common term',
    path: (index) => search(pick(['@mail', 'an', 'gmail', 'son', 'Mar'], index)),
  },
  { name: 'search: no match', path: (index) => search(`zzq${index}`) },
];

const results = [];
for (const shape of shapes) {
  const timing = await measure(requestsPerShape, async (index) => {
    const done = await timed(shape.path(index));
    return { ms: done.ms, matches: done.body.items.length };
  });
  results.push({ name: shape.name, ...timing, isWithinTarget: timing.p99Ms < p99TargetMs });
  console.log(`${shape.name}: p50 ${timing.p50Ms} ms, p99 ${timing.p99Ms} ms`);
}

/** The count alone, as the list asks for it, and count(*) beside it for comparison. */
async function timedCount(count: (database: Database) => Promise<number>) {
  let counted = 0;
  const timing = await measure(countTimings, async () => {
    const startedAt = performance.now();
    counted = await count(db);
    return { ms: performance.now() - startedAt, matches: 0 };
  });
  return { counted, ...timing };
}
const totalUsers = await timedCount(countUsers);
const countStar = await timedCount(async (database) => {
  const rows = await database.query<{ count: bigint }>(
    'SELECT count(*)::bigint AS count FROM users',
  );
  return Number(rows.rows[0]?.count);
});
if (totalUsers.counted !== countStar.counted)
  throw new Error(`Total Users ${totalUsers.counted} but count(*) ${countStar.counted}`);
const machine = await describeMachine(db);

await app.close();
await db.close();

console.log(
  `\n${userCount.toLocaleString('en-US')} users seeded in ${seedSeconds.toFixed(1)} s; ${requestsPerShape} sequential requests per shape over HTTP; load average ${os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(' ')}\n`,
);
const cells = (timing: Timing) => [
  timing.p50Ms.toFixed(2),
  timing.p99Ms.toFixed(2),
  timing.usage.serverCpuMsPerTx.toFixed(2),
  timing.usage.clientCpuMsPerTx.toFixed(2),
  `${timing.usage.otherCpuPercent}%`,
];
console.log(
  table([
    ['query', 'rows', 'p50 ms', 'p99 ms', 'db cpu ms', 'node cpu ms', 'other cpu', 'p99 < 50 ms'],
    ...results.map((result) => [
      result.name,
      result.matchesPerPage.toFixed(1),
      ...cells(result),
      result.isWithinTarget ? 'PASS' : 'MISS',
    ]),
    ['Total Users (counter)', '', ...cells(totalUsers), ''],
    ['count(*), for comparison', '', ...cells(countStar), ''],
  ]),
);
console.log(
  `Total Users ${totalUsers.counted.toLocaleString('en-US')} = count(*); db cpu: the server's CPU per request; other cpu: the rest of the machine`,
);
await writeFile(
  resultsFile,
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      userCount,
      requestsPerShape,
      p99TargetMs,
      seedSeconds: round2(seedSeconds),
      loadAverage: os.loadavg().map(round2),
      machine,
      results,
      totalUsers,
      countStarForComparison: countStar,
    },
    null,
    2,
  )}\n`,
);
console.log(`wrote ${path.relative(process.cwd(), resultsFile)}`);
