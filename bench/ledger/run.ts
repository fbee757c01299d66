// The ledger benchmark: pgbench's TPC-B-like workload as the yardstick, then the ledger's
// own transfers in three mixes on the same PostgreSQL server, then one mix on PGlite.
// Run it with `npm run bench:ledger` from the repository root; see bench/README.md.
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Database, openPostgres } from '../../apps/api/src/db/client.ts';
import type { WindowSummary } from '../shared/measure.ts';
import { measurePgbench } from '../shared/pgbench.ts';
import {
  databaseUrl,
  postmasterPid,
  recreateDatabase,
  startUsageMeter,
  startWaitSampler,
  type Usage,
  type UsageMeter,
  type WaitProfile,
  type WaitSampler,
} from '../shared/postgres.ts';
import { describeMachine, table } from '../shared/report.ts';
import {
  type BenchConfig,
  benchDir,
  type LedgerMixName,
  type LedgerMixRequest,
  type LedgerMixResult,
  type MixMessage,
  type PhaseName,
  readConfig,
} from './config.ts';

type PhaseResult = {
  name: PhaseName;
  label: string;
  engine: 'postgres' | 'pglite';
  tool: 'pgbench' | 'ledger';
  summary: WindowSummary;
  peakRssMb: number;
  peakRssOf: string;
  /** CPU the client process spent per completed transaction. */
  clientCpuMsPerTx: number;
  rejected: { insufficientFunds: number; pgbenchFailed: number };
  waits: WaitProfile | null;
  usage: Usage | null;
  details: Record<string, unknown>;
};

type Comparison = {
  name: string;
  value: number;
  target: number;
  verdict: 'PASS' | 'MISS';
  /**
   * For the CPU-bound pairs: the inverse ratio of CPU per transaction (server + client),
   * i.e. the tps ratio to expect on a machine the benchmark has to itself. Null otherwise.
   */
  cpuNormalizedValue: number | null;
};

const pgbenchScales: Partial<Record<PhaseName, number>> = {
  'pgbench-tpcb': 10,
  'pgbench-scale1': 1,
};
const ledgerMixes: Partial<Record<PhaseName, LedgerMixName>> = {
  'ledger-uniform': 'uniform',
  'ledger-system-sink': 'system-sink',
  'ledger-merchant': 'merchant',
  'pglite-uniform': 'uniform',
};
const labels: Record<PhaseName, string> = {
  'pgbench-tpcb': 'pgbench TPC-B, scale 10',
  'pgbench-scale1': 'pgbench TPC-B, scale 1 (one hot branch)',
  'ledger-uniform': '(a) ledger wallet → wallet, uniform',
  'ledger-system-sink': '(b) ledger wallet → bill_clearing',
  'ledger-merchant': '(c) ledger wallet → one merchant wallet',
  'pglite-uniform': 'PGlite (a) wallet → wallet, uniform',
};
const pgliteTargetTps = 500;
const noisyNeighbourCpuPercent = 10;
const mixModule = path.join(path.dirname(fileURLToPath(import.meta.url)), 'ledger-mix.ts');

async function runPgbenchPhase(
  name: PhaseName,
  scale: number,
  config: BenchConfig,
  admin: Database,
  baseUrl: string,
  serverPid: number,
): Promise<PhaseResult> {
  const { summary, run, usage, waits } = await measurePgbench(
    { admin, url: baseUrl, pid: serverPid },
    {
      database: `bench_${name.replaceAll('-', '_')}`,
      scale,
      clients: config.clients,
      threads: config.pgbenchThreads,
      warmupSeconds: config.warmupSeconds,
      measuredSeconds: config.measuredSeconds,
      waitSampleIntervalMs: config.waitSampleIntervalMs,
    },
  );
  return {
    name,
    label: labels[name],
    engine: 'postgres',
    tool: 'pgbench',
    summary,
    peakRssMb: run.peakRssMb,
    peakRssOf: 'pgbench client process (VmHWM polled from /proc)',
    clientCpuMsPerTx: usage.clientCpuMsPerTx,
    rejected: { insufficientFunds: 0, pgbenchFailed: run.failed },
    waits,
    usage,
    details: {
      scale,
      clients: config.clients,
      threads: config.pgbenchThreads,
      reportedByPgbench: run.reported,
    },
  };
}

function forkLedgerMix(
  request: LedgerMixRequest,
  events: { onMeasuring: () => void; onMeasured: () => void },
): Promise<LedgerMixResult> {
  return new Promise((resolve, reject) => {
    const child = fork(mixModule, [JSON.stringify(request)], { execArgv: ['--import', 'tsx'] });
    let result: LedgerMixResult | null = null;
    child.on('message', (message: MixMessage) => {
      if (message.type === 'measuring') events.onMeasuring();
      if (message.type === 'measured') events.onMeasured();
      if (message.type === 'result') result = message.result;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0 && result) resolve(result);
      else reject(new Error(`ledger mix ${request.mix} (${request.engine}) failed, exit ${code}`));
    });
  });
}

async function runLedgerPhase(
  name: PhaseName,
  mix: LedgerMixName,
  config: BenchConfig,
  admin: Database,
  baseUrl: string,
  serverPid: number,
): Promise<PhaseResult> {
  const engine = name.startsWith('pglite') ? 'pglite' : 'postgres';
  const database = `bench_${name.replaceAll('-', '_')}`;
  if (engine === 'postgres') await recreateDatabase(admin, database);
  // Filled in by the child's messages: the timed run starts and ends inside the child.
  const timed: {
    meter: Promise<UsageMeter> | null;
    meterEnd: Promise<void>;
    sampler: WaitSampler | null;
    waits: Promise<WaitProfile | null>;
  } = { meter: null, meterEnd: Promise.resolve(), sampler: null, waits: Promise.resolve(null) };
  const result = await forkLedgerMix(
    {
      mix,
      engine,
      databaseUrl: engine === 'postgres' ? databaseUrl(baseUrl, database) : null,
      clients: config.clients,
      poolSize: config.poolSize,
      walletCount: config.walletCount,
      warmupMs: config.warmupSeconds * 1000,
      durationMs: config.measuredSeconds * 1000,
      sqlPatchFile: config.ledgerSqlPatchFile,
    },
    {
      onMeasuring: () => {
        if (engine !== 'postgres') return;
        timed.meter = startUsageMeter(admin, serverPid);
        timed.sampler = startWaitSampler(admin, database, config.waitSampleIntervalMs);
      },
      onMeasured: () => {
        if (timed.meter) timed.meterEnd = timed.meter.then((meter) => meter.markEnd());
        if (timed.sampler) timed.waits = timed.sampler.stop();
      },
    },
  );
  const waitProfile = await timed.waits;
  await timed.meterEnd;
  const usage = timed.meter
    ? await (await timed.meter).finish(result.postedTotal, result.clientCpuSeconds)
    : null;
  if (engine === 'postgres') await admin.query(`DROP DATABASE ${database} WITH (FORCE)`);
  return {
    name,
    label: labels[name],
    engine,
    tool: 'ledger',
    summary: result.summary,
    peakRssMb: result.peakRssMb,
    peakRssOf: `ledger's Node child process (maxRSS, ${result.peakRssScope})`,
    clientCpuMsPerTx: Number(
      ((1000 * result.clientCpuSeconds) / Math.max(1, result.postedTotal)).toFixed(2),
    ),
    rejected: { insufficientFunds: result.insufficientFunds, pgbenchFailed: 0 },
    waits: waitProfile,
    usage,
    details: {
      mix,
      engineVersion: result.serverVersion,
      clients: config.clients,
      poolSize: engine === 'pglite' ? 1 : config.poolSize,
      wallets: config.walletCount,
      postedTotal: result.postedTotal,
      setupSeconds: Number(result.setupSeconds.toFixed(1)),
      setupPeakRssMb: Number(result.setupPeakRssMb.toFixed(1)),
      sqlPatch: config.ledgerSqlPatchFile,
      checks: result.checks,
    },
  };
}

function compare(phases: PhaseResult[]): Comparison[] {
  const phaseNamed = (name: PhaseName) => phases.find((phase) => phase.name === name);
  const cpuMsPerTx = (phase: PhaseResult) =>
    phase.usage ? phase.usage.serverCpuMsPerTx + phase.usage.clientCpuMsPerTx : null;
  const comparisons: Comparison[] = [];
  const ratio = (
    name: string,
    numerator: PhaseName,
    denominator: PhaseName,
    target: number,
    isCpuBound: boolean,
  ) => {
    const top = phaseNamed(numerator);
    const bottom = phaseNamed(denominator);
    if (!top || !bottom || bottom.summary.tps === 0) return;
    const value = top.summary.tps / bottom.summary.tps;
    const topCpu = cpuMsPerTx(top);
    const bottomCpu = cpuMsPerTx(bottom);
    comparisons.push({
      name,
      value,
      target,
      verdict: value >= target ? 'PASS' : 'MISS',
      cpuNormalizedValue: isCpuBound && topCpu && bottomCpu ? bottomCpu / topCpu : null,
    });
  };
  ratio('(a) ÷ pgbench TPC-B', 'ledger-uniform', 'pgbench-tpcb', 0.7, true);
  ratio('(b) ÷ pgbench TPC-B', 'ledger-system-sink', 'pgbench-tpcb', 0.7, true);
  // Both sides of (c) queue on one row lock: lock hold time, not CPU, sets their pace.
  ratio('(c) ÷ pgbench scale 1', 'ledger-merchant', 'pgbench-scale1', 1.0, false);
  const pglite = phaseNamed('pglite-uniform');
  if (pglite) {
    comparisons.push({
      name: 'PGlite (a) tps',
      value: pglite.summary.tps,
      target: pgliteTargetTps,
      verdict: pglite.summary.tps >= pgliteTargetTps ? 'PASS' : 'MISS',
      cpuNormalizedValue: null,
    });
  }
  return comparisons;
}

function report(phases: PhaseResult[], comparisons: Comparison[]): string {
  const phaseRows = phases.map((phase) => [
    phase.label,
    phase.summary.tps.toFixed(0),
    phase.summary.p50Ms.toFixed(2),
    phase.summary.p99Ms.toFixed(2),
    phase.peakRssMb.toFixed(0),
    phase.usage ? phase.usage.serverCpuMsPerTx.toFixed(2) : '—',
    phase.clientCpuMsPerTx.toFixed(2),
    phase.usage ? phase.usage.otherCpuPercent.toFixed(0) : '—',
    String(phase.rejected.insufficientFunds + phase.rejected.pgbenchFailed),
  ]);
  const comparisonRows = comparisons.map((comparison) => [
    comparison.name,
    comparison.name.startsWith('PGlite')
      ? comparison.value.toFixed(0)
      : comparison.value.toFixed(2),
    `≥ ${comparison.target}`,
    comparison.verdict,
    comparison.cpuNormalizedValue === null ? '—' : comparison.cpuNormalizedValue.toFixed(2),
  ]);
  const noisyPhases = phases.filter(
    (phase) => (phase.usage?.otherCpuPercent ?? 0) > noisyNeighbourCpuPercent,
  );
  return [
    table([
      [
        'phase',
        'tps',
        'p50 ms',
        'p99 ms',
        'peak RSS MB',
        'server CPU ms/tx',
        'client CPU ms/tx',
        'other CPU %',
        'rejected',
      ],
      ...phaseRows,
    ]),
    '',
    'peak RSS: pgbench rows = the pgbench client process; ledger rows = the Node process',
    'running the mix, during the timed run (server memory is not included in either).',
    'server CPU: all PostgreSQL processes; PGlite runs inside the client, so its work is',
    'client CPU. other CPU %: share of all cores used by processes outside the benchmark;',
    'when it is high, the tps figures are measuring the neighbours as much as the ledger.',
    '',
    table([['comparison', 'value', 'target', 'verdict', 'CPU-normalized'], ...comparisonRows]),
    "CPU-normalized: pgbench CPU per transaction ÷ the ledger's (server + client), the ratio",
    'to expect when nothing else runs; shown for the CPU-bound pairs only.',
    ...(noisyPhases.length === 0
      ? []
      : [
          '',
          `WARNING: other processes used more than ${noisyNeighbourCpuPercent}% of the CPU during ` +
            `${noisyPhases.map((phase) => phase.name).join(', ')}; rerun on a quiet machine ` +
            'before trusting the tps ratios.',
        ]),
  ].join('\n');
}

function pgliteVersion(): string | null {
  try {
    const manifest = path.join(benchDir, '../node_modules/@electric-sql/pglite/package.json');
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version ?? null;
  } catch {
    return null;
  }
}

async function main(): Promise<void> {
  const config = readConfig();
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) {
    throw new Error('DATABASE_URL is not set: run `npm run bench:ledger` from the repository root');
  }
  const admin = openPostgres(baseUrl, 2);
  const serverPid = await postmasterPid(admin);
  const machine = await describeMachine(admin);
  const startedAt = new Date();
  console.log(
    `ledger bench: ${config.phases.length} phases, ${config.warmupSeconds} s warm-up + ` +
      `${config.measuredSeconds} s measured each, ${config.clients} clients`,
  );

  const phases: PhaseResult[] = [];
  for (const name of config.phases) {
    console.log(`\n▶ ${labels[name]}`);
    const scale = pgbenchScales[name];
    const mix = ledgerMixes[name];
    const phase =
      scale !== undefined
        ? await runPgbenchPhase(name, scale, config, admin, baseUrl, serverPid)
        : await runLedgerPhase(name, mix ?? 'uniform', config, admin, baseUrl, serverPid);
    console.log(
      `  ${phase.summary.tps.toFixed(0)} tps, p50 ${phase.summary.p50Ms.toFixed(2)} ms, ` +
        `p99 ${phase.summary.p99Ms.toFixed(2)} ms, peak RSS ${phase.peakRssMb.toFixed(0)} MB`,
    );
    if (phase.waits)
      console.log(`  connections by activity: ${JSON.stringify(phase.waits.averageBackends)}`);
    phases.push(phase);
  }
  await admin.close();

  const comparisons = compare(phases);
  console.log(`\n${report(phases, comparisons)}`);

  const results = {
    date: startedAt.toISOString(),
    durations: {
      warmupSeconds: config.warmupSeconds,
      measuredSeconds: config.measuredSeconds,
      wallClockSeconds: Math.round((Date.now() - startedAt.getTime()) / 1000),
    },
    machine: { ...machine, pglite: pgliteVersion() },
    config: {
      clients: config.clients,
      pgbenchThreads: config.pgbenchThreads,
      ledgerPoolSize: config.poolSize,
      wallets: config.walletCount,
      ledgerSqlPatch: config.ledgerSqlPatchFile,
    },
    method: {
      window:
        'clock starts at the first transaction start; completions in the warm-up are dropped; ' +
        'tps = completions in the measured window / its length; p50/p99 nearest-rank over them',
      pgbenchLatency: 'per-transaction log (pgbench -l)',
      ledgerLatency: 'client-side time around each ledger.post',
    },
    phases,
    comparisons,
  };
  await mkdir(path.dirname(config.resultsFile), { recursive: true });
  await writeFile(config.resultsFile, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nwrote ${path.relative(process.cwd(), config.resultsFile)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
