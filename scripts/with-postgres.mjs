// Runs a command with DATABASE_URL pointing at a fresh PostgreSQL server, then stops it.
//   node scripts/with-postgres.mjs -- <command> [args…]
// The server's bin directory is exported as COFFER_PG_BIN_DIR (for pgbench).
import { spawn } from 'node:child_process';
import { startPostgres } from './postgres-server.mjs';

const separator = process.argv.indexOf('--');
const [command, ...args] = separator === -1 ? [] : process.argv.slice(separator + 1);
if (!command) {
  console.error('usage: node scripts/with-postgres.mjs -- <command> [args…]');
  process.exit(2);
}

const server = await startPostgres();
const stopAndExit = (code) => {
  server.stop();
  process.exit(code);
};
const child = spawn(command, args, {
  stdio: 'inherit',
  env: {
    ...process.env,
    DATABASE_URL: server.url,
    // The API tests' own name for it (the postgres project of vitest.config.ts).
    COFFER_TEST_POSTGRES_URL: server.url,
    COFFER_PG_BIN_DIR: server.binDir,
  },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => stopAndExit(code ?? (signal ? 1 : 0)));
