// Short runs of `npm run chaos` (bench/chaos/run.ts) in the test suite: about a minute of
// load with two API SIGKILLs and two immediate PostgreSQL stops, on its own PostgreSQL
// server (the suite's cannot be stopped under the other tests); and with `--failover`, two
// failovers of the HA set-up (Patroni, etcd, HAProxy; scripts/ha-cluster.mjs).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** Runs the harness with these settings; its exit code and everything it printed. */
async function runChaos(
  settings: Record<string, string>,
  args: string[] = [],
): Promise<{ exitCode: unknown; output: string }> {
  const run = spawn(process.execPath, ['--import', 'tsx', 'bench/chaos/run.ts', ...args], {
    cwd: repoRoot,
    env: { ...process.env, CHAOS_CUSTOMERS: '6', CHAOS_WORKERS: '4', ...settings },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  run.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  run.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  const [exitCode] = await once(run, 'exit');
  return { exitCode, output };
}

it('keeps every acknowledged request exactly once through API kills and database crashes', async () => {
  const { exitCode, output } = await runChaos({
    CHAOS_SECONDS: '30',
    CHAOS_FAULT_INTERVAL_SECONDS: '6',
    CHAOS_FAULTS_MIN: '2',
  });
  expect(output).toMatch(/API SIGKILLs\s+2\n/);
  expect(output).toMatch(/PostgreSQL stops\s+2\n/);
  expect(output).toMatch(/acknowledged\s+[1-9]\d*\n/);
  // Payouts need a step-up code bound to their amount and account: some went through, and
  // so did the card processor's signed authorizations.
  expect(output).toMatch(/acknowledged\s+\d+\n\s+by kind\s+.*\bpayout [1-9]/);
  expect(output).toMatch(/acknowledged\s+\d+\n\s+by kind\s+.*\bcard-authorization [1-9]/);
  expect(output).toMatch(/violations\s+0\n/);
  expect(exitCode, output).toBe(0);
}, 300_000);

it('keeps every acknowledged request exactly once through two failovers', async () => {
  // Three seconds of load before each kill; the second waits for the first's old primary
  // to be back as the synchronous standby, and the load ends once a Quick Pay sent after
  // the second kill is acknowledged. CHAOS_SECONDS only bounds a run that hangs.
  const { exitCode, output } = await runChaos(
    {
      CHAOS_FAILOVERS: '2',
      CHAOS_FAULT_INTERVAL_SECONDS: '3',
      CHAOS_SECONDS: '240',
      CHAOS_FAULTS_MIN: '2',
    },
    ['--failover'],
  );
  expect(output).toMatch(/failovers\s+2\n/);
  expect(output).toMatch(/per failover: \d+\.\d s, \d+\.\d s\n/);
  expect(output).toMatch(/acknowledged\s+[1-9]\d*\n/);
  expect(output).toMatch(/acknowledged\s+\d+\n\s+by kind\s+.*\bpayout [1-9]/);
  expect(output).toMatch(/acknowledged\s+\d+\n\s+by kind\s+.*\bcard-authorization [1-9]/);
  expect(output).toMatch(/violations\s+0\n/);
  expect(exitCode, output).toBe(0);
}, 400_000);
