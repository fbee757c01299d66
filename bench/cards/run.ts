// The card authorization benchmark: pgbench TPC-B as the yardstick, then signed
// authorizations over real HTTP (POST /api/v1/issuing/authorizations, HMAC-SHA256 over each
// body, as an issuing processor sends them) against the API on the same PostgreSQL server.
// Run it with `npm run bench:cards` from the repository root; see bench/README.md.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { toCurrencyCode } from '@coffer/contracts/currencies';
import autocannon from 'autocannon';
import { type Database, openPostgres } from '../../apps/api/src/db/client.ts';
import { migrate } from '../../apps/api/src/db/migrate.ts';
import { insertUser } from '../../apps/api/src/features/auth/queries.ts';
import { type AccountId, createLedger, type Ledger } from '../../apps/api/src/ledger/ledger.ts';
import { newId } from '../../apps/api/src/platform/ids.ts';
import { issuerSignatureHeaders } from '../../apps/api/src/platform/issuer-signature.ts';
import { startApi } from '../api/api-server.ts';
import { benchDir } from '../api/config.ts';
import { integerFromEnv } from '../shared/env.ts';
import {
  readCpuSeconds,
  summarizeWindow,
  type TransactionLog,
  type WindowSummary,
} from '../shared/measure.ts';
import { measurePgbench } from '../shared/pgbench.ts';
import {
  databaseUrl,
  postmasterPid,
  recreateDatabase,
  startUsageMeter,
  type Usage,
} from '../shared/postgres.ts';
import { describeMachine, table } from '../shared/report.ts';

const cardsDatabase = 'bench_cards';
const pgbenchDatabase = 'bench_cards_pgbench';
const pgbenchScale = 10;
const authorizationsPath = '/api/v1/issuing/authorizations';
const targets = { ratio: 0.3, p99Ms: 50 };
const currency = toCurrencyCode('USD');
// 1,000,000.00 a wallet against authorizations of 0.01–2.00 that are never settled (each
// stays held), and a weekly limit as large: no authorization is declined for money.
const walletFundingMinor = 100_000_000n;
const weeklyLimitMinor = 100_000_000n;
const amountMinorMax = 200;
const responseTimeoutSeconds = 10;

const config = {
  measuredSeconds: integerFromEnv('BENCH_SECONDS', 20, { min: 1, max: 3600 }),
  warmupSeconds: integerFromEnv('BENCH_WARMUP_SECONDS', 3, { min: 0, max: 600 }),
  connections: integerFromEnv('BENCH_CONNECTIONS', 8, { min: 1, max: 256 }),
  cardCount: integerFromEnv('BENCH_CARDS', 64, { min: 1, max: 10_000 }),
  apiPoolSize: integerFromEnv('BENCH_API_POOL_SIZE', 10, { min: 1, max: 200 }),
  pgbenchThreads: integerFromEnv('BENCH_PGBENCH_THREADS', 2, { min: 1, max: 64 }),
  resultsFile: path.resolve(
    process.env.BENCH_RESULTS_FILE ?? path.join(benchDir, 'results/cards.json'),
  ),
};

type Cardholder = { userId: string; walletId: AccountId; token: string };

/** Customers with a funded wallet and an issued card each, written straight into the database. */
async function seedCardholders(db: Database, ledger: Ledger): Promise<Cardholder[]> {
  const settlement = await ledger.systemAccount('settlement', currency);
  const cardholders: Cardholder[] = [];
  for (let index = 0; index < config.cardCount; index += 1) {
    const userId = newId();
    const cardholder = await db.transaction(async (tx) => {
      await insertUser(tx, {
        id: userId,
        username: `Bench Cardholder ${index}`,
        email: `bench-cardholder-${index}@coffer.test`,
        phone: null,
        country: 'US',
        role: 'customer',
        // Nobody signs in: the processor's requests carry a signature, not a session.
        passwordHash: 'unused',
        isEmailVerified: true,
      });
      const wallet = await ledger.openWallet(userId, currency, tx);
      const token = `bench_card_${randomBytes(16).toString('hex')}`;
      await tx.query(
        `INSERT INTO cards (id, user_id, account_id, status, issuer_token, last_four, expiry_month,
                            expiry_year, holder_name, currency, fee_minor, weekly_limit_minor)
         VALUES ($1, $2, $3, 'issued', $4, '0000', 12, 2030, 'BENCH', 'USD', 0, $5)`,
        [newId(), userId, wallet.id, token, weeklyLimitMinor],
      );
      return { userId, walletId: wallet.id, token };
    });
    await ledger.post({
      kind: 'deposit',
      memo: 'Benchmark funding',
      lines: [
        { accountId: settlement, amountMinor: -walletFundingMinor },
        { accountId: cardholder.walletId, amountMinor: walletFundingMinor },
      ],
    });
    cardholders.push(cardholder);
  }
  await db.query('VACUUM ANALYZE');
  await db.query('CHECKPOINT');
  return cardholders;
}

/** One signed authorization for a card: a fresh processor id, 0.01–2.00. */
function signedAuthorization(secret: string, token: string) {
  const body = JSON.stringify({
    id: `bench_${randomUUID()}`,
    cardToken: token,
    amountMinor: String(1 + Math.floor(Math.random() * amountMinorMax)),
    currency: 'USD',
    merchant: 'Bench Merchant',
  });
  return {
    body,
    headers: { 'content-type': 'application/json', ...issuerSignatureHeaders(secret, body) },
  };
}

type AuthorizationRun = {
  log: TransactionLog;
  statusCounts: Record<string, number>;
  declined: number;
  connectionErrors: number;
};

/** Connection c authorizes for cards c, c + N … in turn: no two connections share a card. */
function runAuthorizations(
  baseUrl: string,
  secret: string,
  cardholders: Cardholder[],
  seconds: number,
): Promise<AuthorizationRun> {
  const log: TransactionLog = { endsMs: [], latenciesMs: [] };
  const statusCounts: Record<string, number> = {};
  let declined = 0;
  let nextConnection = 0;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: baseUrl,
        connections: config.connections,
        duration: seconds,
        timeout: responseTimeoutSeconds,
        setupClient(client) {
          const own = cardholders.filter(
            (_, index) => index % config.connections === nextConnection % config.connections,
          );
          const cards = own.length > 0 ? own : cardholders;
          nextConnection += 1;
          let turn = 0;
          client.setRequests([
            {
              method: 'POST',
              path: authorizationsPath,
              setupRequest(request) {
                const card = cards[turn % cards.length];
                turn += 1;
                if (!card) throw new Error('a connection has cards');
                return { ...request, ...signedAuthorization(secret, card.token) };
              },
            },
          ]);
          client.on('response', (statusCode, _bytes, responseTimeMs) => {
            statusCounts[statusCode] = (statusCounts[statusCode] ?? 0) + 1;
            if (statusCode !== 200) return;
            log.endsMs.push(performance.now());
            log.latenciesMs.push(responseTimeMs);
          });
          client.on('body', (body: Buffer) => {
            if (body.includes('"approved":false')) declined += 1;
          });
        },
      },
      (error, result) => {
        if (error) reject(error);
        else resolve({ log, statusCounts, declined, connectionErrors: result.errors });
      },
    );
  });
}

type Phase = {
  name: string;
  summary: WindowSummary;
  usage: Usage;
  apiCpuMsPerTx: number | null;
  rejected: number;
};

/** Fails the run unless the books balance and every answered approval holds its amount once. */
async function checkAfterLoad(db: Database, ledger: Ledger, approvedMin: number) {
  await ledger.assertInvariants();
  const found = await db.query<{
    approved: number;
    holds: number;
    held: bigint;
    holdsMinor: bigint;
  }>(
    `SELECT (SELECT count(*)::int FROM card_authorizations WHERE status = 'approved') AS approved,
            (SELECT count(*)::int FROM holds WHERE status = 'active') AS holds,
            (SELECT coalesce(sum(held_minor), 0)::bigint FROM account_balances) AS held,
            (SELECT coalesce(sum(amount_minor), 0)::bigint FROM holds WHERE status = 'active')
              AS "holdsMinor"`,
  );
  const row = found.rows[0];
  if (!row || row.approved !== row.holds || row.held !== row.holdsMinor) {
    throw new Error(`approvals and holds disagree: ${JSON.stringify(row, (_k, v) => String(v))}`);
  }
  if (row.approved < approvedMin) {
    throw new Error(`${approvedMin} approvals were answered but ${row.approved} are stored`);
  }
  return { invariants: 'ok', approvedStored: row.approved, activeHolds: row.holds };
}

async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('DATABASE_URL is not set: run `npm run bench:cards`');
  const admin = openPostgres(serverUrl, 2);
  const server = { admin, url: serverUrl, pid: await postmasterPid(admin) };
  const machine = await describeMachine(admin);
  const startedAt = new Date();
  const windowMs = {
    warmupMs: config.warmupSeconds * 1000,
    durationMs: config.measuredSeconds * 1000,
  };
  console.log(
    `cards bench: ${config.warmupSeconds} s warm-up + ${config.measuredSeconds} s measured, ` +
      `${config.connections} connections, ${config.cardCount} cards`,
  );

  console.log(`\n▶ pgbench TPC-B, scale ${pgbenchScale}, ${config.connections} clients`);
  const pgbench = await measurePgbench(server, {
    database: pgbenchDatabase,
    scale: pgbenchScale,
    clients: config.connections,
    threads: Math.min(config.pgbenchThreads, config.connections),
    warmupSeconds: config.warmupSeconds,
    measuredSeconds: config.measuredSeconds,
    waitSampleIntervalMs: 0,
  });
  const phases: Phase[] = [
    {
      name: `pgbench TPC-B, ${config.connections} clients`,
      summary: pgbench.summary,
      usage: pgbench.usage,
      apiCpuMsPerTx: null,
      rejected: pgbench.run.failed,
    },
  ];

  await recreateDatabase(admin, cardsDatabase);
  const url = databaseUrl(serverUrl, cardsDatabase);
  const db = openPostgres(url, 4);
  const secret = randomBytes(32).toString('hex');
  let checks: Awaited<ReturnType<typeof checkAfterLoad>> | null = null;
  let run: AuthorizationRun | null = null;
  await migrate(db);
  console.log(`▶ seeding ${config.cardCount} cardholders`);
  const ledger = createLedger(db);
  const cardholders = await seedCardholders(db, ledger);
  const apiServer = await startApi({
    databaseUrl: url,
    poolSize: config.apiPoolSize,
    webDistDir: path.join(benchDir, 'no-web-app'),
    cpuProfileDir: process.env.BENCH_API_CPU_PROFILE_DIR || null,
    env: { COFFER_ISSUING_SECRET: secret },
  });
  try {
    console.log(`\n▶ signed authorizations over HTTP, ${config.connections} connections`);
    await admin.query('CHECKPOINT');
    const meter = await startUsageMeter(admin, server.pid);
    const apiCpuAtStart = readCpuSeconds(apiServer.pid) ?? 0;
    const clientCpuAtStart = process.cpuUsage();
    run = await runAuthorizations(
      apiServer.baseUrl,
      secret,
      cardholders,
      config.warmupSeconds + config.measuredSeconds + 1,
    );
    await meter.markEnd();
    const apiCpuSeconds = (readCpuSeconds(apiServer.pid) ?? apiCpuAtStart) - apiCpuAtStart;
    const clientUsed = process.cpuUsage(clientCpuAtStart);
    const clientCpuSeconds = (clientUsed.user + clientUsed.system) / 1e6;
    const answered = run.log.endsMs.length;
    const usage = await meter.finish(answered, clientCpuSeconds);
    const responses = Object.values(run.statusCounts).reduce((sum, count) => sum + count, 0);
    phases.push({
      name: `signed authorizations over HTTP, ${config.connections} connections`,
      summary: summarizeWindow(run.log, windowMs),
      usage,
      apiCpuMsPerTx: Number(((1000 * apiCpuSeconds) / Math.max(1, answered)).toFixed(2)),
      rejected: responses - answered + run.declined + run.connectionErrors,
    });
    checks = await checkAfterLoad(db, ledger, answered - run.declined);
  } finally {
    await apiServer.stop();
    await db.close();
    await admin.query(`DROP DATABASE IF EXISTS ${cardsDatabase} WITH (FORCE)`);
    await admin.close();
  }

  const [yardstick, cards] = phases;
  const ratio = yardstick && cards ? cards.summary.tps / Math.max(1, yardstick.summary.tps) : 0;
  const p99Ms = cards?.summary.p99Ms ?? 0;
  console.log(
    `\n${table([
      [
        'phase',
        'tps',
        'p50 ms',
        'p99 ms',
        'server CPU ms/tx',
        'API CPU ms/tx',
        'other CPU %',
        'rejected',
      ],
      ...phases.map((phase) => [
        phase.name,
        phase.summary.tps.toFixed(0),
        phase.summary.p50Ms.toFixed(2),
        phase.summary.p99Ms.toFixed(2),
        phase.usage.serverCpuMsPerTx.toFixed(2),
        phase.apiCpuMsPerTx === null ? '—' : phase.apiCpuMsPerTx.toFixed(2),
        phase.usage.otherCpuPercent.toFixed(0),
        String(phase.rejected),
      ]),
    ])}`,
  );
  const comparisons = [
    ['authorizations/s', (cards?.summary.tps ?? 0).toFixed(0), '—', 'info'],
    [
      'authorizations ÷ pgbench TPC-B',
      ratio.toFixed(2),
      `≥ ${targets.ratio}`,
      ratio >= targets.ratio ? 'PASS' : 'MISS',
    ],
    [
      'authorization p99',
      `${p99Ms.toFixed(1)} ms`,
      `< ${targets.p99Ms}`,
      p99Ms < targets.p99Ms ? 'PASS' : 'MISS',
    ],
  ];
  console.log(`\n${table([['comparison', 'value', 'target', 'verdict'], ...comparisons])}`);
  console.log(`checks after the load: ${JSON.stringify(checks)}`);
  const results = {
    date: startedAt.toISOString(),
    machine,
    config: { ...config, resultsFile: undefined, pgbenchScale },
    method:
      'autocannon keep-alive connections, each POST a fresh processor id and an HMAC-SHA256 ' +
      'signature computed by the load generator; tps and p99 over the 200 answers in the ' +
      'measured window (shared/measure.ts summarizeWindow), the same rule as pgbench',
    phases,
    statusCounts: run?.statusCounts ?? null,
    checks,
    comparisons: comparisons.map(([name, value, target, verdict]) => ({
      name,
      value,
      target,
      verdict,
    })),
  };
  await mkdir(path.dirname(config.resultsFile), { recursive: true });
  await writeFile(config.resultsFile, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nwrote ${path.relative(process.cwd(), config.resultsFile)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
