// A short run of `npm run chaos` (bench/chaos/run.ts) in the test suite: about a minute of
// load with two API SIGKILLs and two immediate PostgreSQL stops, on its own PostgreSQL
// server (the suite's cannot be stopped under the other tests).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

it('keeps every acknowledged request exactly once through API kills and database crashes', async () => {
  const run = spawn(process.execPath, ['--import', 'tsx', 'bench/chaos/run.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      CHAOS_SECONDS: '30',
      CHAOS_FAULT_INTERVAL_SECONDS: '6',
      CHAOS_FAULTS_MIN: '2',
      CHAOS_CUSTOMERS: '6',
      CHAOS_WORKERS: '4',
    },
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
  expect(output).toMatch(/API SIGKILLs\s+2\n/);
  expect(output).toMatch(/PostgreSQL stops\s+2\n/);
  expect(output).toMatch(/acknowledged\s+[1-9]\d*\n/);
  // Payouts need a step-up code bound to their amount and account: some went through.
  expect(output).toMatch(/acknowledged\s+\d+\n\s+by kind\s+.*\bpayout [1-9]/);
  expect(output).toMatch(/violations\s+0\n/);
  expect(exitCode, output).toBe(0);
}, 300_000);
