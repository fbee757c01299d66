import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Database } from '../../apps/api/src/db/client.ts';
import {
  readCpuSeconds,
  readPeakRssMb,
  summarizeWindow,
  type TransactionLog,
  type WindowSummary,
} from './measure.ts';
import {
  recreateDatabase,
  startUsageMeter,
  startWaitSampler,
  type Usage,
  type WaitProfile,
} from './postgres.ts';

export type PgbenchTarget = {
  binDir: string;
  host: string;
  port: string;
  user: string;
  database: string;
};

export type PgbenchRun = {
  log: TransactionLog;
  /** Transactions pgbench logged as failed or skipped; none are expected. */
  failed: number;
  /** Peak RSS of the pgbench client process, polled from /proc/<pid>/status (VmHWM). */
  peakRssMb: number;
  /** CPU seconds the pgbench client used, polled like the RSS (so up to 50 ms short). */
  clientCpuSeconds: number;
  /** pgbench's own summary over its whole run, warm-up included, for reference. */
  reported: { tps: number | null; latencyAverageMs: number | null };
};

const rssPollIntervalMs = 50;

/** pgbench's connection to one database of the server at `serverUrl`. */
export function pgbenchTarget(serverUrl: string, database: string): PgbenchTarget {
  const url = new URL(serverUrl);
  return {
    // Exported by scripts/with-postgres.mjs; empty means pgbench from the PATH.
    binDir: process.env.COFFER_PG_BIN_DIR ?? '',
    host: url.hostname,
    port: url.port || '5432',
    user: decodeURIComponent(url.username),
    database,
  };
}

function run(
  target: PgbenchTarget,
  args: string[],
  onStart: (pid: number) => void = () => {},
): Promise<string> {
  const connection = ['-h', target.host, '-p', target.port, '-U', target.user];
  return new Promise((resolve, reject) => {
    const child = spawn(
      path.join(target.binDir, 'pgbench'),
      [...args, ...connection, target.database],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0) resolve(output);
      else reject(new Error(`pgbench ${args.join(' ')} exited with ${code}:\n${output}`));
    });
    if (child.pid !== undefined) onStart(child.pid);
  });
}

/** `pgbench -i -s <scale>`: the standard TPC-B-like tables, vacuumed, with primary keys. */
export async function initPgbench(target: PgbenchTarget, scale: number): Promise<void> {
  await run(target, ['-i', '-q', '-s', String(scale)]);
}

/** Runs the built-in TPC-B-like script with a per-transaction log (`-l`) for percentiles. */
export async function runPgbench(
  target: PgbenchTarget,
  options: { clients: number; threads: number; seconds: number },
): Promise<PgbenchRun> {
  const logDir = await mkdtemp(path.join(os.tmpdir(), 'coffer-pgbench-'));
  let peakRssMb = 0;
  let clientCpuSeconds = 0;
  let poller: NodeJS.Timeout | undefined;
  try {
    const output = await run(
      target,
      [
        '-c',
        String(options.clients),
        '-j',
        String(options.threads),
        '-T',
        String(options.seconds),
        '-l',
        `--log-prefix=${path.join(logDir, 'pgbench')}`,
      ],
      (pid) => {
        poller = setInterval(() => {
          peakRssMb = Math.max(peakRssMb, readPeakRssMb(pid) ?? 0);
          clientCpuSeconds = Math.max(clientCpuSeconds, readCpuSeconds(pid) ?? 0);
        }, rssPollIntervalMs);
      },
    );
    const log: TransactionLog = { endsMs: [], latenciesMs: [] };
    let failed = 0;
    for (const file of await readdir(logDir)) {
      // Each line: client_id transaction_no time_us script_no epoch_s epoch_us, where the
      // epoch pair is when the transaction completed; time is "failed"/"skipped" otherwise.
      for (const line of (await readFile(path.join(logDir, file), 'utf8')).split('\n')) {
        const fields = line.trim().split(/\s+/);
        if (fields.length < 6) continue;
        const latencyUs = Number(fields[2]);
        if (!Number.isFinite(latencyUs)) {
          failed += 1;
          continue;
        }
        log.endsMs.push(Number(fields[4]) * 1000 + Number(fields[5]) / 1000);
        log.latenciesMs.push(latencyUs / 1000);
      }
    }
    const tps = /^tps = ([\d.]+)/m.exec(output)?.[1];
    const latencyAverageMs = /^latency average = ([\d.]+) ms/m.exec(output)?.[1];
    return {
      log,
      failed,
      peakRssMb,
      clientCpuSeconds,
      reported: {
        tps: tps === undefined ? null : Number(tps),
        latencyAverageMs: latencyAverageMs === undefined ? null : Number(latencyAverageMs),
      },
    };
  } finally {
    clearInterval(poller);
    await rm(logDir, { recursive: true, force: true });
  }
}

export type PgbenchMeasurement = {
  summary: WindowSummary;
  run: PgbenchRun;
  usage: Usage;
  waits: WaitProfile | null;
};

/**
 * The yardstick phase: a fresh database initialised at `scale` and checkpointed, then the
 * TPC-B-like script under the usage meter, summarised by the shared window rule. The
 * database is dropped again afterwards.
 */
export async function measurePgbench(
  server: { admin: Database; url: string; pid: number },
  options: {
    database: string;
    scale: number;
    clients: number;
    threads: number;
    warmupSeconds: number;
    measuredSeconds: number;
    waitSampleIntervalMs: number;
  },
): Promise<PgbenchMeasurement> {
  const { admin } = server;
  await recreateDatabase(admin, options.database);
  const target = pgbenchTarget(server.url, options.database);
  await initPgbench(target, options.scale);
  await admin.query('CHECKPOINT');
  const meter = await startUsageMeter(admin, server.pid);
  const sampler = startWaitSampler(admin, options.database, options.waitSampleIntervalMs);
  // One second beyond the window, so that pgbench's own ramp-down never falls inside it.
  const run = await runPgbench(target, {
    clients: options.clients,
    threads: options.threads,
    seconds: options.warmupSeconds + options.measuredSeconds + 1,
  });
  await meter.markEnd();
  const waits = await sampler.stop();
  const usage = await meter.finish(run.log.endsMs.length, run.clientCpuSeconds);
  await admin.query(`DROP DATABASE ${options.database} WITH (FORCE)`);
  const summary = summarizeWindow(run.log, {
    warmupMs: options.warmupSeconds * 1000,
    durationMs: options.measuredSeconds * 1000,
  });
  return { summary, run, usage, waits };
}
