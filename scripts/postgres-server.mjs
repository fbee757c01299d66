// Starts a throwaway PostgreSQL server from the machine's binaries in a temp directory,
// on a free loopback port, and stops it again. Installs Debian's postgresql when the
// machine has no server binaries. Used by the test command and the benchmarks.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { aptInstall } from './apt-install.mjs';

function findBinDir() {
  const candidates = [];
  const fromPgConfig = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  if (fromPgConfig.status === 0) candidates.push(fromPgConfig.stdout.trim());
  if (existsSync('/usr/lib/postgresql')) {
    const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
    for (const version of versions) candidates.push(`/usr/lib/postgresql/${version}/bin`);
  }
  return candidates.find(
    (dir) => existsSync(path.join(dir, 'initdb')) && existsSync(path.join(dir, 'postgres')),
  );
}

export function ensurePostgresBinaries() {
  let binDir = findBinDir();
  if (binDir) return binDir;
  console.log('[postgres] no server binaries found; installing Debian postgresql…');
  aptInstall(['postgresql', 'postgresql-contrib']);
  binDir = findBinDir();
  if (!binDir) throw new Error('postgresql installed but initdb/postgres not found');
  return binDir;
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// PostgreSQL refuses to run as root; CI runs as root, so the server runs as `postgres`.
export function serverUser() {
  if (process.getuid?.() !== 0) return null;
  const user = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  if (user.status !== 0) {
    execFileSync('useradd', [
      '--system',
      '--no-create-home',
      '--shell',
      '/usr/sbin/nologin',
      'postgres',
    ]);
  }
  return {
    uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()),
  };
}

/**
 * @param {{ settings?: Record<string, string>, quiet?: boolean }} options
 *   settings: extra server settings, e.g. { fsync: 'off' } for tests.
 * @returns {Promise<{ url: string, port: number, binDir: string, stop: () => void,
 *   stopImmediately: () => Promise<unknown>, startAgain: () => Promise<unknown> }>}
 */
export async function startPostgres(options = {}) {
  const binDir = ensurePostgresBinaries();
  const user = serverUser();
  const baseDir = mkdtempSync(path.join(os.tmpdir(), 'coffer-pg-'));
  const dataDir = path.join(baseDir, 'data');
  chmodSync(baseDir, 0o755);
  if (user) chownSync(baseDir, user.uid, user.gid);
  const runAs = user ? { uid: user.uid, gid: user.gid } : {};
  const run = (binary, args) =>
    execFileSync(path.join(binDir, binary), args, {
      ...runAs,
      cwd: baseDir,
      stdio: options.quiet === false ? 'inherit' : 'pipe',
    });
  // For callers that keep working while the server stops and starts (npm run chaos).
  const runInBackground = (binary, args) =>
    promisify(execFile)(path.join(binDir, binary), args, { ...runAs, cwd: baseDir });

  run('initdb', ['-D', dataDir, '-U', 'coffer', '--auth=trust', '--encoding=UTF8', '--no-sync']);
  const port = await freePort();
  const settings = {
    listen_addresses: '127.0.0.1',
    port: String(port),
    unix_socket_directories: baseDir,
    max_connections: '300',
    ...options.settings,
  };
  const serverOptions = Object.entries(settings)
    .map(([name, value]) => `-c ${name}=${value}`)
    .join(' ');
  const startArgs = [
    '-D',
    dataDir,
    '-l',
    path.join(baseDir, 'server.log'),
    '-o',
    serverOptions,
    '-w',
    '-t',
    '60',
    'start',
  ];
  run('pg_ctl', startArgs);

  let isStopped = false;
  const stop = () => {
    if (isStopped) return;
    isStopped = true;
    try {
      run('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
    } finally {
      rmSync(baseDir, { recursive: true, force: true });
    }
  };
  return {
    url: `postgres://coffer@127.0.0.1:${port}/postgres`,
    port,
    host: '127.0.0.1',
    binDir,
    baseDir,
    stop,
    // For the crash-safety harness (npm run chaos): a crash without a checkpoint, whose
    // next start replays the write-ahead log, and that start.
    stopImmediately: () =>
      runInBackground('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']),
    startAgain: () => runInBackground('pg_ctl', startArgs),
  };
}
