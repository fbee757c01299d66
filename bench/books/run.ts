// The general-ledger export benchmark (issue #30): one million journal lines exported as
// CSV over real HTTP by the API in its own process, timed, with the API's RSS sampled
// throughout: the export streams keyset pages, so its memory must not grow with the lines.
// Run it with `npm run bench:books` from the repository root; see bench/README.md.
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { toCurrencyCode } from '@coffer/contracts/currencies';
import { type Database, openPostgres } from '../../apps/api/src/db/client.ts';
import { migrate } from '../../apps/api/src/db/migrate.ts';
import { createLedger } from '../../apps/api/src/ledger/ledger.ts';
import { newId } from '../../apps/api/src/platform/ids.ts';
import { startApi } from '../api/api-server.ts';
import { benchDir, repoRoot } from '../api/config.ts';
import { benchAdminSessionToken } from '../shared/admin-session.ts';
import { integerFromEnv } from '../shared/env.ts';
import { readRssMb, sleep } from '../shared/measure.ts';

// Two lines per entry: a million lines by default.
const entryCount = integerFromEnv('BENCH_ENTRIES', 500_000, { min: 1_000, max: 5_000_000 });
const rssSampleMs = 20;
const targets = { secondsBelow: 60, rssGrowthMbBelow: 50 };
const amountMinor = 100n;

/**
 * The journal the export reads: `entryCount` deposits from settlement into one wallet, made
 * over yesterday, written in bulk (the ledger functions would take an hour for this many)
 * with the balances they sum to, so the ledger's invariants hold for the daily close.
 */
async function seedJournal(db: Database): Promise<void> {
  const ledger = createLedger(db);
  const usd = toCurrencyCode('USD');
  const settlement = await ledger.systemAccount('settlement', usd);
  const wallet = await ledger.openWallet(newId(), usd);
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO journal_entries (id, kind, memo, created_at)
       SELECT gen_random_uuid(), 'deposit', 'Bench wire ' || n,
              date_trunc('day', now()) - interval '1 day' + n * (interval '1 day' / $1)
         FROM generate_series(0, $1 - 1) AS n`,
      [entryCount],
    );
    await tx.query(
      `INSERT INTO journal_lines (entry_id, account_id, amount_minor, currency, posted_at, kind)
       SELECT e.id, side.account_id, side.amount_minor, 'USD', e.created_at, e.kind
         FROM journal_entries e
        CROSS JOIN (VALUES ($1::uuid, -$3::bigint, 0), ($2::uuid, $3::bigint, 1))
                   AS side (account_id, amount_minor, position)
        ORDER BY e.created_at, side.position`,
      [settlement, wallet.id, amountMinor.toString()],
    );
    const totalMinor = (amountMinor * BigInt(entryCount)).toString();
    await tx.query(
      'UPDATE account_balances SET balance_minor = -$2::bigint WHERE account_id = $1 AND bucket = 0',
      [settlement, totalMinor],
    );
    await tx.query('UPDATE account_balances SET balance_minor = $2::bigint WHERE account_id = $1', [
      wallet.id,
      totalMinor,
    ]);
  });
  await db.query('VACUUM ANALYZE journal_entries');
  await db.query('VACUUM ANALYZE journal_lines');
}

async function adminCookie(db: Database): Promise<string> {
  const token = await benchAdminSessionToken(db, 'bench-books-admin@coffer.test');
  // The API runs with an https public URL, so its cookie has the __Host- prefix.
  return `__Host-coffer_session=${token}`;
}

/** Reads the reply as it arrives, counting lines and bytes; keeps none of it. */
async function download(url: string, cookie: string): Promise<{ lines: number; bytes: number }> {
  const response = await fetch(url, { headers: { cookie } });
  if (response.status !== 200 || !response.body) {
    throw new Error(`export failed: ${response.status} ${await response.text()}`);
  }
  let lines = 0;
  let bytes = 0;
  for await (const chunk of response.body) {
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 0x0a) lines += 1;
  }
  return { lines, bytes };
}

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is not set: run `npm run bench:books`');
  const db = openPostgres(databaseUrl, 4);
  await migrate(db);
  console.log(`seeding ${entryCount * 2} journal lines…`);
  await seedJournal(db);
  const cookie = await adminCookie(db);
  const api = await startApi({
    databaseUrl,
    poolSize: 10,
    webDistDir: path.join(repoRoot, 'apps/web/dist'),
    cpuProfileDir: process.env.BENCH_API_CPU_PROFILE_DIR || null,
  });
  try {
    // The daily close runs at start-up (yesterday is not closed): let it finish first, so
    // that its work is not counted as the export's.
    for (let waited = 0; waited < 120; waited += 1) {
      const closed = await db.query('SELECT 1 FROM book_closes LIMIT 1');
      if (closed.rows.length > 0) break;
      await sleep(1000);
    }
    await sleep(1000);
    const found = await db.query<{ from: string; to: string }>(
      "SELECT ((now() AT TIME ZONE 'UTC')::date - 1)::text AS from, (now() AT TIME ZONE 'UTC')::date::text AS to",
    );
    const range = found.rows[0];
    if (!range) throw new Error('no dates');
    const url = `${api.baseUrl}/api/v1/admin/books/journal.csv?from=${range.from}&to=${range.to}`;
    const baselineMb = readRssMb(api.pid);
    let peakMb = baselineMb;
    const sampler = setInterval(() => {
      peakMb = Math.max(peakMb, readRssMb(api.pid));
    }, rssSampleMs);
    const startedMs = performance.now();
    const { lines, bytes } = await download(url, cookie);
    const seconds = (performance.now() - startedMs) / 1000;
    clearInterval(sampler);
    peakMb = Math.max(peakMb, readRssMb(api.pid));
    const journalLines = lines - 1;
    if (journalLines !== entryCount * 2) {
      throw new Error(`the export has ${journalLines} lines, not ${entryCount * 2}`);
    }
    const rssGrowthMb = peakMb - baselineMb;
    const verdict = (isMet: boolean) => (isMet ? 'PASS' : 'MISS');
    console.log(
      `exported ${journalLines} journal lines (${(bytes / 1024 / 1024).toFixed(1)} MiB of CSV) in ${seconds.toFixed(1)} s: ${Math.round(journalLines / seconds)} lines/s (target < ${targets.secondsBelow} s) ${verdict(seconds < targets.secondsBelow)}`,
    );
    console.log(
      `API RSS ${baselineMb.toFixed(1)} MiB before, peak growth ${rssGrowthMb.toFixed(1)} MiB (target < ${targets.rssGrowthMbBelow} MB) ${verdict(rssGrowthMb < targets.rssGrowthMbBelow)}; load average ${(os.loadavg()[0] ?? 0).toFixed(1)} on ${os.availableParallelism()} CPUs`,
    );
    const resultsFile =
      process.env.BENCH_RESULTS_FILE ?? path.join(benchDir, 'results', 'books.json');
    await mkdir(path.dirname(resultsFile), { recursive: true });
    await writeFile(
      resultsFile,
      `${JSON.stringify({ journalLines, bytes, seconds, baselineMb, rssGrowthMb, targets }, null, 2)}\n`,
    );
  } finally {
    await api.stop();
    await db.close();
  }
}

await main();
