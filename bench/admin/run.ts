// npm run bench:admin — seeds 100,000 users on a fresh PostgreSQL database and measures
// the staff customer list and search over real HTTP: p50 and p99 per query shape.
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CustomerList, customerListSchema } from '@coffer/contracts/admin';
import pg from 'pg';
import { buildApp } from '../../apps/api/src/app.ts';
import { loadConfig } from '../../apps/api/src/config.ts';
import { openPostgres } from '../../apps/api/src/db/client.ts';
import { migrate } from '../../apps/api/src/db/migrate.ts';
import { insertUser } from '../../apps/api/src/features/auth/queries.ts';
import { newId } from '../../apps/api/src/platform/ids.ts';
import { createSession } from '../../apps/api/src/platform/sessions.ts';

const userCount = Number(process.env.BENCH_USERS ?? 100_000);
const requestsPerShape = Number(process.env.BENCH_REQUESTS ?? 300);
const p99TargetMs = 50;
const resultsFile = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../results/admin.json',
);

const serverUrl = process.env.DATABASE_URL;
if (!serverUrl) throw new Error('DATABASE_URL is not set: run through `npm run bench:admin`');

const databaseName = 'bench_admin';
const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
await admin.query(`CREATE DATABASE ${databaseName}`);
await admin.end();
const url = new URL(serverUrl);
url.pathname = `/${databaseName}`;
const db = openPostgres(url.toString(), 8);
await migrate(db);

console.log(`seeding ${userCount.toLocaleString('en-US')} users with wallets…`);
const seedStartedAt = performance.now();
await db.query(
  `INSERT INTO users (id, username, email, country, role, password_hash, email_verified_at)
   SELECT gen_random_uuid(), 'Customer ' || n || ' ' || substr(md5(n::text), 1, 6),
          'customer' || n || '@' || (ARRAY['example.com','mail.test','bank.example'])[1 + n % 3],
          'US', 'customer', 'not-a-hash', now()
     FROM generate_series(1, $1::int) AS n`,
  [userCount],
);
await db.query(
  `INSERT INTO accounts (id, number, kind, owner_user_id, currency, bucket_count)
   SELECT gen_random_uuid(), lpad((1000000000 + row_number() OVER ())::text, 10, '0'), 'customer', id, 'USD', 1
     FROM users`,
);
await db.query(
  `INSERT INTO account_balances (account_id, bucket, balance_minor)
   SELECT id, 0, 0 FROM accounts WHERE kind = 'customer'`,
);
// A bulk load leaves every row without hint bits: the first query to read a page would
// write it back, and that write lands in whichever request comes first. A live database
// has long been vacuumed; so is this one before anything is measured.
await db.query('VACUUM ANALYZE');
const seedSeconds = (performance.now() - seedStartedAt) / 1000;

const adminId = newId();
await insertUser(db, {
  id: adminId,
  username: 'Bench Admin',
  email: 'bench-admin@coffer.test',
  phone: null,
  country: 'US',
  role: 'admin',
  passwordHash: 'not-a-hash',
  isEmailVerified: true,
});
const { token } = await createSession(db, {
  userId: adminId,
  userAgent: 'bench',
  ipAddress: '127.0.0.1',
});

const config = loadConfig({
  NODE_ENV: 'test',
  COFFER_SANDBOX: '0',
  COFFER_LOG_LEVEL: 'warn',
  COFFER_DATA_DIR: path.join(os.tmpdir(), 'coffer-bench-unused'),
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

// A cursor deep into the list, so paging is measured away from the first page too.
let deepCursor: string | null = null;
let page = await timed('/api/v1/admin/users?limit=100');
for (let pageIndex = 0; pageIndex < 50 && page.body.nextCursor; pageIndex += 1) {
  deepCursor = page.body.nextCursor;
  page = await timed(`/api/v1/admin/users?limit=100&cursor=${deepCursor}`);
}

const shapes: { name: string; path: (index: number) => string }[] = [
  { name: 'list, first page (25)', path: () => '/api/v1/admin/users' },
  { name: 'list, page 50 deep', path: () => `/api/v1/admin/users?cursor=${deepCursor}` },
  {
    name: 'search name substring',
    path: (index) => `/api/v1/admin/users?search=customer%20${1000 + (index % 9000)}`,
  },
  {
    name: 'search email substring',
    path: (index) => `/api/v1/admin/users?search=${500 + (index % 9000)}%40mail`,
  },
  { name: 'search, no match', path: (index) => `/api/v1/admin/users?search=zzq${index}` },
  {
    name: 'search common term',
    path: (index) => `/api/v1/admin/users?search=${['%40mail', 'customer', '.test'][index % 3]}`,
  },
];

const results = [];
for (const shape of shapes) {
  for (let warmup = 0; warmup < 20; warmup += 1) await timed(shape.path(warmup));
  const latencies: number[] = [];
  for (let index = 0; index < requestsPerShape; index += 1)
    latencies.push((await timed(shape.path(index))).ms);
  latencies.sort((a, b) => a - b);
  const p50Ms = percentile(latencies, 0.5);
  const p99Ms = percentile(latencies, 0.99);
  results.push({
    name: shape.name,
    requests: latencies.length,
    p50Ms,
    p99Ms,
    isWithinTarget: p99Ms < p99TargetMs,
  });
}

await app.close();
await db.close();

console.log(
  `\nseeded in ${seedSeconds.toFixed(1)} s; ${requestsPerShape} sequential requests per shape over HTTP`,
);
console.log(
  `${'query'.padEnd(26)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)}  target p99 < ${p99TargetMs} ms`,
);
for (const result of results) {
  console.log(
    `${result.name.padEnd(26)} ${result.p50Ms.toFixed(2).padStart(8)} ${result.p99Ms.toFixed(2).padStart(8)}  ${result.isWithinTarget ? 'PASS' : 'MISS'}`,
  );
}
await writeFile(
  resultsFile,
  `${JSON.stringify({ date: new Date().toISOString(), userCount, requestsPerShape, p99TargetMs, seedSeconds, results }, null, 2)}\n`,
);
console.log(`wrote ${path.relative(process.cwd(), resultsFile)}`);
