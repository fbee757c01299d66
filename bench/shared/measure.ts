import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

/**
 * Completed transactions of one phase, in completion order or not: each one's end time
 * (milliseconds on any clock shared by the whole log) and its latency.
 */
export type TransactionLog = { endsMs: number[]; latenciesMs: number[] };

export type WindowSummary = {
  /** Transactions that completed inside the measured window. */
  transactions: number;
  tps: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  maxMs: number;
};

/**
 * One rule for every tool, so pgbench and the ledger are measured alike: the clock starts
 * when the first transaction starts; transactions completing in the first `warmupMs` are
 * ignored; the window then lasts `durationMs`, and whatever completes after it is ignored.
 */
export function summarizeWindow(
  log: TransactionLog,
  window: { warmupMs: number; durationMs: number },
): WindowSummary {
  let firstStartMs = Number.POSITIVE_INFINITY;
  log.endsMs.forEach((endMs, index) => {
    firstStartMs = Math.min(firstStartMs, endMs - (log.latenciesMs[index] ?? 0));
  });
  const windowStartMs = firstStartMs + window.warmupMs;
  const windowEndMs = windowStartMs + window.durationMs;
  const latenciesMs: number[] = [];
  log.endsMs.forEach((endMs, index) => {
    if (endMs >= windowStartMs && endMs < windowEndMs)
      latenciesMs.push(log.latenciesMs[index] ?? 0);
  });
  const sorted = Float64Array.from(latenciesMs).sort();
  const total = sorted.reduce((sum, latencyMs) => sum + latencyMs, 0);
  return {
    transactions: sorted.length,
    tps: sorted.length / (window.durationMs / 1000),
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    meanMs: sorted.length === 0 ? 0 : total / sorted.length,
    maxMs: sorted.at(-1) ?? 0,
  };
}

/** Nearest-rank percentile of an ascending array; 0 for an empty one. */
function percentile(sortedAscending: Float64Array, fraction: number): number {
  if (sortedAscending.length === 0) return 0;
  const rank = Math.ceil(fraction * sortedAscending.length);
  return sortedAscending[Math.min(sortedAscending.length, Math.max(1, rank)) - 1] ?? 0;
}

const kibPerMib = 1024;

/** Peak resident set size of a process so far (VmHWM), in MiB; null once it has gone. */
export function readPeakRssMb(pid: number | 'self'): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /^VmHWM:\s+(\d+)\s+kB$/m.exec(status);
    return match?.[1] ? Number(match[1]) / kibPerMib : null;
  } catch {
    return null;
  }
}

/** Resident set size of a process now (VmRSS), in MiB; 0 once it has gone. */
export function readRssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/^VmRSS:\s+(\d+)\s+kB$/m.exec(status)?.[1] ?? 0) / kibPerMib;
  } catch {
    return 0;
  }
}

/** This process's peak RSS in MiB (getrusage's ru_maxrss, in KiB on Linux). */
export function ownPeakRssMb(): number {
  return process.resourceUsage().maxRSS / kibPerMib;
}

/**
 * Resets this process's peak RSS to its current RSS (Linux ≥ 4.0: writing 5 to clear_refs),
 * so that the peak read later covers only what ran after the reset. False when the kernel
 * refuses; the peak then covers the process's whole life.
 */
export function resetPeakRss(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

/** The fields of /proc/<pid>/stat after the parenthesised command name, or null. */
function readStatFields(pid: number | string): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

// Indexes into readStatFields: ppid, then utime/stime (own) and cutime/cstime (reaped children).
const statParentPid = 1;
const statUserTime = 11;
const statChildrenSystemTime = 14;

/** CPU seconds (user + system) a process has used so far, from /proc; null once it has gone. */
export function readCpuSeconds(pid: number): number | null {
  const fields = readStatFields(pid);
  if (!fields) return null;
  return (Number(fields[statUserTime]) + Number(fields[statUserTime + 1])) / clockTicksPerSecond;
}

/** The process's parent, from /proc; null once it has gone. */
export function readParentPid(pid: number): number | null {
  const fields = readStatFields(pid);
  return fields ? Number(fields[statParentPid]) : null;
}

/**
 * CPU seconds used by a server process and its children so far: its own time, the time of
 * children it has already reaped, and the time of its live children. Two readings bracket
 * the work of every backend that lived in between, even one that exited meanwhile.
 */
export function readProcessTreeCpuSeconds(rootPid: number): number {
  let ticks = 0;
  const root = readStatFields(rootPid);
  for (let index = statUserTime; index <= statChildrenSystemTime; index += 1) {
    ticks += Number(root?.[index] ?? 0);
  }
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = readStatFields(entry);
    if (fields && Number(fields[statParentPid]) === rootPid) {
      ticks += Number(fields[statUserTime]) + Number(fields[statUserTime + 1]);
    }
  }
  return ticks / clockTicksPerSecond;
}

// USER_HZ: the unit of /proc's CPU times, 100 on every mainstream Linux build.
export const clockTicksPerSecond = 100;

export type MachineCpuSnapshot = {
  busyTicks: number;
  ioWaitTicks: number;
  stealTicks: number;
  totalTicks: number;
};

/** The machine-wide CPU counters of /proc/stat (all cores together). */
export function readMachineCpu(): MachineCpuSnapshot {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const [user, nice, system, idle, ioWait, irq, softIrq, steal] = line
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const busyTicks = (user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softIrq ?? 0);
  return {
    busyTicks,
    ioWaitTicks: ioWait ?? 0,
    stealTicks: steal ?? 0,
    totalTicks: busyTicks + (idle ?? 0) + (ioWait ?? 0) + (steal ?? 0),
  };
}

export function sleep(durationMs: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, durationMs));
}
