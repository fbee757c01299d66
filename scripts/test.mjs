// The README's test command (after `npm ci`): installs what the tests need that npm does
// not (Debian's chromium, PostgreSQL server binaries, Prometheus and promtool), starts a
// throwaway PostgreSQL server, builds the web app for the browser tests, runs every Vitest
// project, and stops the server again. Extra arguments go to vitest (e.g. `npm test -- --project unit`).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { aptInstall } from './apt-install.mjs';
import { ensureHaPrograms } from './ha-cluster.mjs';
import { ensurePostgresBinaries, startPostgres } from './postgres-server.mjs';

const chromiumPath = '/usr/bin/chromium';

function step(message) {
  console.log(`\n[test] ${message}`);
}

if (!existsSync(chromiumPath)) {
  step('installing Debian chromium for the browser tests');
  aptInstall(['chromium', 'fonts-dejavu-core']);
}
if (!existsSync('/usr/bin/prometheus') || !existsSync('/usr/bin/promtool')) {
  step(
    'installing Debian prometheus for the metrics test (apps/api/src/platform/prometheus.pg.test.ts)',
  );
  aptInstall(['prometheus']);
}
ensurePostgresBinaries();
// The failover test (apps/api/src/failover.pg.test.ts) starts Patroni, etcd and HAProxy.
ensureHaPrograms();

step('building the web app');
execFileSync('npm', ['run', 'build', '-w', '@coffer/web'], { stdio: 'inherit' });

step('starting PostgreSQL');
// Durability settings are off: these databases live for one test run.
const server = await startPostgres({
  settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' },
});
console.log(`[test] PostgreSQL at ${server.url}`);

mkdirSync('.tmp', { recursive: true });
const summaryPath = '.tmp/vitest-summary.json';
const vitest = spawn(
  'npx',
  [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${summaryPath}`,
    ...process.argv.slice(2),
  ],
  {
    stdio: 'inherit',
    env: { ...process.env, COFFER_TEST_POSTGRES_URL: server.url, CHROMIUM_PATH: chromiumPath },
  },
);
const forward = (signal) => vitest.kill(signal);
process.on('SIGINT', forward);
process.on('SIGTERM', forward);
vitest.on('exit', (code, signal) => {
  step('stopping PostgreSQL');
  server.stop();
  // One plain closing line that any CI can read, whatever the reporter printed.
  if (existsSync(summaryPath)) {
    const summary = JSON.parse(readFileSync(summaryPath, 'utf8'));
    console.log(`\ntests: ${summary.numPassedTests} passed, ${summary.numFailedTests} failed`);
  }
  process.exit(code ?? (signal ? 1 : 0));
});
