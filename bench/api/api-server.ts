// The API under test, started the way an operator runs it in production (`npm start`:
// tsx apps/api/src/main.ts, NODE_ENV=production, behind a TLS proxy) in a process of its
// own, so that the load generator never shares its event loop.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sleep } from '../shared/measure.ts';
import { repoRoot } from './config.ts';

export type ApiServer = {
  baseUrl: string;
  pid: number;
  stop: () => Promise<void>;
};

const startTimeoutMs = 60_000;
const stopTimeoutMs = 15_000;
const outputTailCharsMax = 8_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function isHealthy(baseUrl: string): Promise<boolean> {
  try {
    const response = await fetch(`${baseUrl}/api/v1/health`, { signal: AbortSignal.timeout(2000) });
    return response.ok;
  } catch {
    return false;
  }
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

export async function startApi(options: {
  /** Null: the embedded PGlite database under `dataDir`. */
  databaseUrl: string | null;
  poolSize: number;
  webDistDir: string;
  cpuProfileDir: string | null;
  /** COFFER_DATA_DIR (uploaded documents); a throwaway directory by default. */
  dataDir?: string;
  /** More environment for the API process. */
  env?: Record<string, string>;
}): Promise<ApiServer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const profileFlags = options.cpuProfileDir
    ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`]
    : [];
  // Flags NODE_OPTIONS refuses (--trace-gc, --max-semi-space-size...) for the API alone.
  const extraFlags = process.env.BENCH_API_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];
  // Without DATABASE_URL the API opens the PGlite database under COFFER_DATA_DIR.
  const { DATABASE_URL: _inheritedUrl, ...inheritedEnv } = process.env;
  const child = spawn(
    process.execPath,
    [...profileFlags, ...extraFlags, '--import', 'tsx', 'apps/api/src/main.ts'],
    {
      cwd: repoRoot,
      env: {
        ...inheritedEnv,
        NODE_ENV: 'production',
        COFFER_SANDBOX: '0',
        // Production insists on the https origin people reach it at; a TLS proxy would sit in
        // front. The benchmark talks plain HTTP to the API, as that proxy would.
        COFFER_PUBLIC_URL: 'https://coffer.bench.invalid',
        COFFER_SECRET_KEY: randomBytes(32).toString('hex'),
        COFFER_MAIL: 'outbox-only',
        // The web part's and the chaos run's staff sign in with a password alone.
        COFFER_STAFF_TWO_FACTOR: '0',
        ...(options.databaseUrl === null ? {} : { DATABASE_URL: options.databaseUrl }),
        COFFER_DB_POOL_SIZE: String(options.poolSize),
        COFFER_WEB_DIST: options.webDistDir,
        COFFER_DATA_DIR: options.dataDir ?? path.join(os.tmpdir(), 'coffer-bench-api-unused'),
        COFFER_HOST: '127.0.0.1',
        // The load sends hundreds of Quick Pays a second from 64 customers: lift the
        // per-customer limit (30 a minute by default) that would refuse most of them.
        COFFER_MONEY_REQUESTS_PER_MINUTE: '1000000',
        PORT: String(port),
        COFFER_LOG_LEVEL: 'warn',
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const keepOutput = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-outputTailCharsMax);
  };
  child.stdout?.on('data', keepOutput);
  child.stderr?.on('data', keepOutput);
  // All of it, for what those flags print (--trace-gc): the tail above is for failures.
  if (process.env.BENCH_API_OUTPUT_FILE) {
    const outputFile = createWriteStream(process.env.BENCH_API_OUTPUT_FILE);
    child.stdout?.pipe(outputFile);
    child.stderr?.pipe(outputFile);
  }

  const stop = async () => {
    if (hasExited(child)) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), stopTimeoutMs);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + startTimeoutMs;
  while (!(await isHealthy(baseUrl))) {
    if (hasExited(child) || Date.now() > deadline) {
      await stop();
      throw new Error(`the API did not start. Its output:\n${output}`);
    }
    await sleep(100);
  }
  if (child.pid === undefined) throw new Error('the API process has no pid');
  return { baseUrl, pid: child.pid, stop };
}

/**
 * Signs a customer in and returns the session cookie ("name=value"). Logins are limited per
 * client address, so each customer can come from an address of its own (any 127.x.y.z
 * reaches the loopback interface on Linux).
 */
export function logIn(
  baseUrl: string,
  credentials: { email: string; password: string },
  localAddress = '127.0.0.1',
): Promise<string> {
  const body = JSON.stringify(credentials);
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${baseUrl}/api/v1/auth/login`,
      {
        method: 'POST',
        localAddress,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => {
          const cookie = response.headers['set-cookie']?.[0]?.split(';')[0];
          if (response.statusCode === 200 && cookie) resolve(cookie);
          else reject(new Error(`login of ${credentials.email}: ${response.statusCode} ${text}`));
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
