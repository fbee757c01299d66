// One ledger workload in its own process, so that its peak RSS is its own. The runner
// forks it with a LedgerMixRequest as the only argument; it answers over IPC.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { type CurrencyCode, toCurrencyCode } from '@coffer/contracts/currencies';
import type { EntryKind } from '@coffer/contracts/ledger';
import { type Database, openPglite, openPostgres } from '../../apps/api/src/db/client.ts';
import { migrate } from '../../apps/api/src/db/migrate.ts';
import { type AccountId, createLedger, type Ledger } from '../../apps/api/src/ledger/ledger.ts';
import { AppError } from '../../apps/api/src/platform/app-error.ts';
import {
  ownPeakRssMb,
  resetPeakRss,
  summarizeWindow,
  type TransactionLog,
} from '../shared/measure.ts';
import type { LedgerMixRequest, LedgerMixResult, MixMessage } from './config.ts';

const usd: CurrencyCode = toCurrencyCode('USD');
// 10,000.00 per wallet against at most 10.00 per transfer: no wallet runs dry in a run
// of any sensible length, and if one ever does the refusal is counted, not hidden.
const walletFundingMinor = 1_000_000n;
const transferMinorMax = 1_000;
const walletsPerTransaction = 500;

type Transfer = { kind: EntryKind; fromId: AccountId; toId: AccountId; amountMinor: bigint };

function send(message: MixMessage): Promise<void> {
  const sendToRunner = process.send?.bind(process);
  if (!sendToRunner) throw new Error('ledger-mix runs as a child of bench/ledger/run.ts');
  return new Promise((resolve, reject) => {
    sendToRunner(message, undefined, {}, (error) => (error ? reject(error) : resolve()));
  });
}

function randomIndex(count: number): number {
  return Math.floor(Math.random() * count);
}

function randomAmountMinor(): bigint {
  return BigInt(1 + randomIndex(transferMinorMax));
}

/**
 * Opens `count` wallets, then funds each with a deposit entry of its own from `settlement`,
 * so the journal starts with as many entries as there are wallets: the planner then sees
 * tables of a realistic size, as pgbench's are after `-i`. (Plans made while
 * journal_entries holds a handful of rows keep sequential scans in the foreign-key checks
 * until the next ANALYZE.) Each deposit commits alone: two transactions that each post
 * several entries against `settlement` can deadlock on its randomly chosen buckets.
 */
async function openFundedWallets(
  db: Database,
  ledger: Ledger,
  count: number,
  concurrency: number,
): Promise<AccountId[]> {
  const settlementId = await ledger.systemAccount('settlement', usd);
  const wallets: AccountId[] = [];
  let opened = 0;
  // Opening touches no shared row, so several wallets share a transaction and a commit.
  async function openBatches(): Promise<void> {
    while (opened < count) {
      const batchSize = Math.min(walletsPerTransaction, count - opened);
      opened += batchSize;
      const batch = await db.transaction(async (tx) => {
        const ids: AccountId[] = [];
        for (let index = 0; index < batchSize; index += 1) {
          ids.push((await ledger.openWallet(randomUUID(), usd, tx)).id);
        }
        return ids;
      });
      wallets.push(...batch);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, openBatches));
  let funded = 0;
  async function fundWallets(): Promise<void> {
    while (funded < wallets.length) {
      const accountId = wallets[funded] as AccountId;
      funded += 1;
      await ledger.post({
        kind: 'deposit',
        memo: 'bench funding',
        lines: [
          { accountId: settlementId, amountMinor: -walletFundingMinor },
          { accountId, amountMinor: walletFundingMinor },
        ],
      });
    }
  }
  await Promise.all(Array.from({ length: concurrency }, fundWallets));
  return wallets;
}

async function sumBalancesMinor(db: Database, accountIds: AccountId[] | null): Promise<bigint> {
  const result = await db.query<{ total: bigint | null }>(
    accountIds === null
      ? 'SELECT sum(balance_minor)::bigint AS total FROM account_balances'
      : 'SELECT sum(balance_minor)::bigint AS total FROM account_balances WHERE account_id = ANY ($1::uuid[])',
    accountIds === null ? [] : [accountIds],
  );
  return result.rows[0]?.total ?? 0n;
}

async function countEntries(db: Database): Promise<number> {
  const result = await db.query<{ entries: bigint }>(
    'SELECT count(*)::bigint AS entries FROM journal_entries',
  );
  return Number(result.rows[0]?.entries ?? 0n);
}

async function main(): Promise<void> {
  const request = JSON.parse(process.argv[2] ?? '') as LedgerMixRequest;
  const setupStartedMs = performance.now();
  const db =
    request.engine === 'pglite'
      ? await openPglite()
      : openPostgres(request.databaseUrl ?? '', request.poolSize);
  await migrate(db);
  if (request.sqlPatchFile) {
    // Statements separated as in the migrations: PGlite runs one statement per query.
    const patch = await readFile(request.sqlPatchFile, 'utf8');
    for (const statement of patch.split('--> statement-breakpoint')) {
      if (statement.trim() !== '') await db.query(statement);
    }
  }
  const ledger = createLedger(db);

  const setupConcurrency = request.engine === 'pglite' ? 1 : request.clients;
  const wallets = await openFundedWallets(db, ledger, request.walletCount, setupConcurrency);

  let sinkId: AccountId | null = null;
  if (request.mix === 'system-sink') sinkId = await ledger.systemAccount('bill_clearing', usd);
  if (request.mix === 'merchant') sinkId = (await ledger.openWallet(randomUUID(), usd)).id;
  const nextTransfer = (): Transfer => {
    const fromIndex = randomIndex(wallets.length);
    const fromId = wallets[fromIndex] as AccountId;
    if (sinkId !== null) {
      const kind = request.mix === 'system-sink' ? 'bill_payment' : 'card_purchase';
      return { kind, fromId, toId: sinkId, amountMinor: randomAmountMinor() };
    }
    // A second index drawn from the others, so a wallet never pays itself.
    let toIndex = randomIndex(wallets.length - 1);
    if (toIndex >= fromIndex) toIndex += 1;
    const toId = wallets[toIndex] as AccountId;
    return { kind: 'transfer', fromId, toId, amountMinor: randomAmountMinor() };
  };

  const participants = sinkId === null ? wallets : [...wallets, sinkId];
  const totalBefore = await sumBalancesMinor(db, null);
  const participantsBefore = await sumBalancesMinor(db, participants);
  const sinkBefore = sinkId === null ? 0n : await sumBalancesMinor(db, [sinkId]);
  const entriesBefore = await countEntries(db);
  // The same starting state pgbench gets after `pgbench -i`: vacuumed, analysed, and no
  // checkpoint owed from the set-up writes.
  await db.query('VACUUM ANALYZE');
  await db.query('CHECKPOINT');
  const setupSeconds = (performance.now() - setupStartedMs) / 1000;
  const setupPeakRssMb = ownPeakRssMb();
  const isPeakReset = resetPeakRss();

  const log: TransactionLog = { endsMs: [], latenciesMs: [] };
  let insufficientFunds = 0;
  let sinkCreditedMinor = 0n;
  await send({ type: 'measuring' });
  const cpuBefore = process.cpuUsage();
  const stopAtMs = performance.now() + request.warmupMs + request.durationMs;
  async function worker(): Promise<void> {
    while (performance.now() < stopAtMs) {
      const transfer = nextTransfer();
      const startedMs = performance.now();
      try {
        await ledger.post({
          kind: transfer.kind,
          memo: 'bench transfer',
          idempotencyKey: randomUUID(),
          lines: [
            { accountId: transfer.fromId, amountMinor: -transfer.amountMinor },
            { accountId: transfer.toId, amountMinor: transfer.amountMinor },
          ],
        });
      } catch (error) {
        if (error instanceof AppError && error.code === 'insufficient_funds') {
          insufficientFunds += 1;
          continue;
        }
        throw error;
      }
      const endMs = performance.now();
      log.endsMs.push(endMs);
      log.latenciesMs.push(endMs - startedMs);
      if (transfer.toId === sinkId) sinkCreditedMinor += transfer.amountMinor;
    }
  }
  await Promise.all(Array.from({ length: request.clients }, worker));
  const cpu = process.cpuUsage(cpuBefore);
  await send({ type: 'measured' });
  const peakRssMb = ownPeakRssMb();

  // Money is conserved: every entry sums to zero, nothing leaked out of the participants,
  // the sink received exactly what the clients saw succeed, and each success is one entry.
  await ledger.assertInvariants();
  const totalAfter = await sumBalancesMinor(db, null);
  const participantsAfter = await sumBalancesMinor(db, participants);
  const sinkAfter = sinkId === null ? 0n : await sumBalancesMinor(db, [sinkId]);
  const entriesAdded = (await countEntries(db)) - entriesBefore;
  const version = await db.query<{ version: string }>('SELECT version()');
  const failures = [
    totalAfter !== totalBefore || totalAfter !== 0n
      ? `total balance ${totalBefore} → ${totalAfter} (must stay 0)`
      : null,
    participantsAfter !== participantsBefore
      ? `participants' balance ${participantsBefore} → ${participantsAfter}`
      : null,
    sinkAfter - sinkBefore !== sinkCreditedMinor
      ? `sink credited ${sinkAfter - sinkBefore}, clients posted ${sinkCreditedMinor}`
      : null,
    entriesAdded !== log.endsMs.length
      ? `${entriesAdded} entries added for ${log.endsMs.length} successful postings`
      : null,
  ].filter((failure) => failure !== null);
  if (failures.length > 0) throw new Error(`money not conserved:\n${failures.join('\n')}`);
  await db.close();

  const result: LedgerMixResult = {
    summary: summarizeWindow(log, { warmupMs: request.warmupMs, durationMs: request.durationMs }),
    postedTotal: log.endsMs.length,
    insufficientFunds,
    peakRssMb,
    peakRssScope: isPeakReset ? 'timed run' : 'whole process',
    setupPeakRssMb,
    setupSeconds,
    clientCpuSeconds: (cpu.user + cpu.system) / 1_000_000,
    serverVersion: version.rows[0]?.version ?? 'unknown',
    checks: {
      invariants: 'ok',
      totalBalanceMinor: { before: totalBefore.toString(), after: totalAfter.toString() },
      participantsBalanceMinor: {
        before: participantsBefore.toString(),
        after: participantsAfter.toString(),
      },
      entriesAdded,
      sinkCreditedMinor:
        sinkId === null
          ? null
          : {
              expected: sinkCreditedMinor.toString(),
              actual: (sinkAfter - sinkBefore).toString(),
            },
    },
  };
  await send({ type: 'result', result });
  process.disconnect();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
