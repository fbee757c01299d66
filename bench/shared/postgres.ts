// The benchmarks' view of their PostgreSQL server: databases of their own on it, and what
// the server did during a timed run (CPU, WAL, what its connections waited on).
import type { Database } from '../../apps/api/src/db/client.ts';
import {
  clockTicksPerSecond,
  readMachineCpu,
  readParentPid,
  readProcessTreeCpuSeconds,
  sleep,
} from './measure.ts';

export type WaitProfile = {
  samples: number;
  /** Average number of the phase's connections in each state / wait event per sample. */
  averageBackends: Record<string, number>;
};

/** Where the work went during the timed run, per transaction where that makes sense. */
export type Usage = {
  walBytesPerTx: number;
  walRecordsPerTx: number;
  walFullPageImagesPerTx: number;
  walSyncsPerSecond: number;
  /** All cores together: 100 means every core busy (server, client and anything else). */
  machineCpuBusyPercent: number;
  machineIoWaitPercent: number;
  /** Time the hypervisor gave this VM's CPUs to other guests: noise no process shows. */
  machineStealPercent: number;
  /** CPU of everything else on the machine (other jobs): noise in this phase's figures. */
  otherCpuPercent: number;
  serverCpuMsPerTx: number;
  clientCpuMsPerTx: number;
};

/** The URL of one database on the server that `serverUrl` points at. */
export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function recreateDatabase(admin: Database, database: string): Promise<void> {
  await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${database}`);
}

/** Samples what the phase's connections are doing, as pg_stat_activity shows it. */
export function startWaitSampler(admin: Database, database: string, intervalMs: number) {
  const totals = new Map<string, number>();
  let samples = 0;
  let isRunning = intervalMs > 0;
  const loop = (async () => {
    while (isRunning) {
      const result = await admin.query<{ activity: string; backends: number }>(
        `SELECT CASE WHEN state = 'active'
                     THEN coalesce(wait_event_type || ':' || wait_event, 'CPU (no wait event)')
                     ELSE state END AS activity,
                count(*)::int AS backends
           FROM pg_stat_activity
          WHERE datname = $1 AND backend_type = 'client backend' AND pid <> pg_backend_pid()
          GROUP BY 1`,
        [database],
      );
      samples += 1;
      for (const row of result.rows) {
        totals.set(row.activity, (totals.get(row.activity) ?? 0) + row.backends);
      }
      await sleep(intervalMs);
    }
  })();
  return {
    async stop(): Promise<WaitProfile | null> {
      if (intervalMs === 0) return null;
      isRunning = false;
      await loop;
      const averageBackends = Object.fromEntries(
        [...totals.entries()]
          .sort((left, right) => right[1] - left[1])
          .map(([activity, total]) => [activity, Number((total / samples).toFixed(2))]),
      );
      return { samples, averageBackends };
    },
  };
}

type WalCounters = { records: bigint; fullPageImages: bigint; syncs: bigint };

async function walCounters(admin: Database): Promise<WalCounters> {
  const result = await admin.query<{ records: bigint; fpi: bigint; syncs: bigint }>(
    'SELECT wal_records AS records, wal_fpi AS fpi, wal_sync AS syncs FROM pg_stat_wal',
  );
  const row = result.rows[0];
  return {
    records: row?.records ?? 0n,
    fullPageImages: row?.fpi ?? 0n,
    syncs: row?.syncs ?? 0n,
  };
}

async function walPositionBytes(admin: Database): Promise<bigint> {
  const result = await admin.query<{ position: bigint }>(
    `SELECT (pg_current_wal_lsn() - '0/0'::pg_lsn)::bigint AS position`,
  );
  return result.rows[0]?.position ?? 0n;
}

// Backends publish their WAL statistics at most once a second and when they exit.
const statisticsFlushDelayMs = 1_100;

/** Brackets a timed run: WAL written and synced, and how busy the machine's CPUs were. */
export async function startUsageMeter(admin: Database, serverPid: number) {
  const snapshot = async () => ({
    cpu: readMachineCpu(),
    serverCpuSeconds: readProcessTreeCpuSeconds(serverPid),
    walPosition: await walPositionBytes(admin),
    atMs: performance.now(),
  });
  const begin = { ...(await snapshot()), wal: await walCounters(admin) };
  let end: Awaited<ReturnType<typeof snapshot>> | null = null;
  return {
    async markEnd(): Promise<void> {
      end = await snapshot();
    },
    async finish(transactions: number, clientCpuSeconds: number): Promise<Usage> {
      const ended = end ?? (await snapshot());
      await sleep(statisticsFlushDelayMs);
      const wal = await walCounters(admin);
      const perTx = (value: bigint) => Number(value) / Math.max(1, transactions);
      const ticks = Math.max(1, ended.cpu.totalTicks - begin.cpu.totalTicks);
      const serverCpuSeconds = ended.serverCpuSeconds - begin.serverCpuSeconds;
      const busySeconds = (ended.cpu.busyTicks - begin.cpu.busyTicks) / clockTicksPerSecond;
      const capacitySeconds = ticks / clockTicksPerSecond;
      const round = (value: number) => Number(value.toFixed(2));
      return {
        walBytesPerTx: Math.round(perTx(ended.walPosition - begin.walPosition)),
        walRecordsPerTx: round(perTx(wal.records - begin.wal.records)),
        walFullPageImagesPerTx: round(perTx(wal.fullPageImages - begin.wal.fullPageImages)),
        walSyncsPerSecond: Math.round(
          Number(wal.syncs - begin.wal.syncs) / ((ended.atMs - begin.atMs) / 1000),
        ),
        machineCpuBusyPercent: round((100 * (ended.cpu.busyTicks - begin.cpu.busyTicks)) / ticks),
        machineIoWaitPercent: round(
          (100 * (ended.cpu.ioWaitTicks - begin.cpu.ioWaitTicks)) / ticks,
        ),
        machineStealPercent: round((100 * (ended.cpu.stealTicks - begin.cpu.stealTicks)) / ticks),
        otherCpuPercent: round(
          (100 * Math.max(0, busySeconds - serverCpuSeconds - clientCpuSeconds)) / capacitySeconds,
        ),
        serverCpuMsPerTx: round((1000 * serverCpuSeconds) / Math.max(1, transactions)),
        clientCpuMsPerTx: round((1000 * clientCpuSeconds) / Math.max(1, transactions)),
      };
    },
  };
}

export type UsageMeter = Awaited<ReturnType<typeof startUsageMeter>>;
export type WaitSampler = ReturnType<typeof startWaitSampler>;

/** The server's main process, parent of every backend; the server runs on this machine. */
export async function postmasterPid(admin: Database): Promise<number> {
  // One connection, so that the backend asked is still alive when /proc is read.
  return admin.transaction(async (tx) => {
    const result = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const pid = readParentPid(result.rows[0]?.pid ?? 0);
    if (pid === null) throw new Error('the PostgreSQL server must run on this machine');
    return pid;
  });
}
