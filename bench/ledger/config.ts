import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { integerFromEnv } from '../shared/env.ts';
import type { WindowSummary } from '../shared/measure.ts';

export const benchDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const phaseNames = [
  'pgbench-tpcb',
  'pgbench-scale1',
  'ledger-uniform',
  'ledger-system-sink',
  'ledger-merchant',
  'pglite-uniform',
] as const;
export type PhaseName = (typeof phaseNames)[number];

/** (a) wallet → wallet, (b) wallet → one system account, (c) wallet → one merchant wallet. */
export type LedgerMixName = 'uniform' | 'system-sink' | 'merchant';

export type BenchConfig = {
  measuredSeconds: number;
  warmupSeconds: number;
  clients: number;
  pgbenchThreads: number;
  poolSize: number;
  walletCount: number;
  phases: PhaseName[];
  resultsFile: string;
  /** Extra SQL run after the migrations in every ledger database: to try a ledger change. */
  ledgerSqlPatchFile: string | null;
  waitSampleIntervalMs: number;
};

function phasesFromEnv(): PhaseName[] {
  const text = process.env.BENCH_PHASES;
  if (!text) return [...phaseNames];
  const wanted = text.split(',').map((name) => name.trim());
  const unknown = wanted.filter((name) => !(phaseNames as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new Error(`BENCH_PHASES: unknown ${unknown.join(', ')}; known: ${phaseNames.join(', ')}`);
  }
  return phaseNames.filter((name) => wanted.includes(name));
}

export function readConfig(): BenchConfig {
  const clients = integerFromEnv('BENCH_CLIENTS', 8, { min: 1, max: 64 });
  const patch = process.env.BENCH_LEDGER_SQL_PATCH;
  return {
    measuredSeconds: integerFromEnv('BENCH_SECONDS', 20, { min: 1, max: 3600 }),
    warmupSeconds: integerFromEnv('BENCH_WARMUP_SECONDS', 3, { min: 0, max: 600 }),
    clients,
    pgbenchThreads: integerFromEnv('BENCH_PGBENCH_THREADS', 2, { min: 1, max: clients }),
    poolSize: integerFromEnv('BENCH_POOL_SIZE', clients, { min: 1, max: 64 }),
    walletCount: integerFromEnv('BENCH_WALLETS', 10_000, { min: 2, max: 1_000_000 }),
    phases: phasesFromEnv(),
    resultsFile: path.resolve(
      process.env.BENCH_RESULTS_FILE ?? path.join(benchDir, 'results/ledger.json'),
    ),
    ledgerSqlPatchFile: patch ? path.resolve(patch) : null,
    waitSampleIntervalMs: integerFromEnv('BENCH_WAIT_SAMPLE_MS', 100, { min: 0, max: 10_000 }),
  };
}

/** What the runner asks of one ledger child process. */
export type LedgerMixRequest = {
  mix: LedgerMixName;
  engine: 'postgres' | 'pglite';
  /** Null for PGlite, which runs in memory inside the child. */
  databaseUrl: string | null;
  clients: number;
  poolSize: number;
  walletCount: number;
  warmupMs: number;
  durationMs: number;
  sqlPatchFile: string | null;
};

/** What the child reports back; money travels as strings because IPC is JSON. */
export type LedgerMixResult = {
  summary: WindowSummary;
  /** Every posting that completed, inside the window or not. */
  postedTotal: number;
  insufficientFunds: number;
  peakRssMb: number;
  /** 'timed run' when the peak was reset after set-up, else 'whole process'. */
  peakRssScope: 'timed run' | 'whole process';
  setupPeakRssMb: number;
  setupSeconds: number;
  /** CPU seconds this process used during the timed run. */
  clientCpuSeconds: number;
  serverVersion: string;
  checks: {
    invariants: 'ok';
    totalBalanceMinor: { before: string; after: string };
    participantsBalanceMinor: { before: string; after: string };
    entriesAdded: number;
    sinkCreditedMinor: { expected: string; actual: string } | null;
  };
};

export type MixMessage =
  | { type: 'measuring' }
  | { type: 'measured' }
  | { type: 'result'; result: LedgerMixResult };
