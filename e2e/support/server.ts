// Starts the real API, serving the built web app, as a child process on a free port with a
// fresh embedded database, exactly as an operator would run it.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';

export const repoRoot = path.resolve(import.meta.dirname, '../..');
// COFFER_E2E_WEB_DIST points at another build (several people building at once).
const webIndexPath = path.join(
  process.env.COFFER_E2E_WEB_DIST ?? path.join(repoRoot, 'apps/web/dist'),
  'index.html',
);
const tsxPath = path.join(repoRoot, 'node_modules/.bin/tsx');

// Two files start their servers at once (vitest.config.ts); on a 2-core machine that other
// work also loads, importing and opening the database has taken over 45 s.
const startTimeoutMs = 150_000;
const stopTimeoutMs = 15_000;
const healthPollIntervalMs = 100;
const healthRequestTimeoutMs = 2_000;
/** Keep only the end of the server's output, for the error message if it fails to start. */
const outputTailCharsMax = 8_000;

export type RunningServer = {
  baseUrl: string;
  stop: () => Promise<void>;
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        server.close();
        reject(new Error('could not read the port of a probe socket'));
        return;
      }
      server.close(() => resolve(address.port));
    });
  });
}

async function isHealthy(baseUrl: string): Promise<boolean> {
  try {
    const response = await fetch(`${baseUrl}/api/v1/health`, {
      signal: AbortSignal.timeout(healthRequestTimeoutMs),
    });
    return response.ok;
  } catch {
    return false;
  }
}

async function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return true;
  const timeout = new Promise<false>((resolve) => setTimeout(() => resolve(false), timeoutMs));
  return Promise.race([once(child, 'exit').then(() => true), timeout]);
}

export type ServerOptions = {
  /**
   * Extra environment for the API process, e.g. SMTP_URL or COFFER_SITE_FILE. It is applied
   * last, so it can also override the defaults below.
   */
  env?: Record<string, string>;
  /**
   * The host name the browser uses and COFFER_PUBLIC_URL names (127.0.0.1 by default).
   * Passkeys need a domain: WebAuthn refuses an IP address as its relying party.
   */
  publicHost?: string;
};

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  if (!existsSync(webIndexPath)) {
    throw new Error(
      `${webIndexPath} is missing: build the web app first (npm run build -w @coffer/web)`,
    );
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'coffer-e2e-'));
  // The run's migrated empty database (template-data-dir.ts), unless the test brings its own.
  if (options.env?.COFFER_DATA_DIR === undefined) {
    cpSync(inject('e2eDataDirTemplate'), dataDir, { recursive: true });
  }
  const port = await freePort();
  const baseUrl = `http://${options.publicHost ?? '127.0.0.1'}:${port}`;
  // The server listens on 127.0.0.1 whatever name the browser uses for it.
  const healthUrl = `http://127.0.0.1:${port}`;

  // The test command exports a PostgreSQL URL for the API tests; the browser tests run the
  // zero-install default (embedded PGlite, sandbox) that `npm start` gives a new operator.
  const { DATABASE_URL: _postgresUrl, ...inheritedEnv } = process.env;
  const child = spawn(tsxPath, ['apps/api/src/main.ts'], {
    cwd: repoRoot,
    env: {
      ...inheritedEnv,
      NODE_ENV: 'test',
      COFFER_SANDBOX: '1',
      COFFER_DATA_DIR: dataDir,
      COFFER_WEB_DIST: path.dirname(webIndexPath),
      PORT: String(port),
      COFFER_HOST: '127.0.0.1',
      COFFER_LOG_LEVEL: 'warn',
      // Links in mail point at the address the browser uses, so following one keeps the
      // session cookie.
      COFFER_PUBLIC_URL: baseUrl,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keepOutput = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-outputTailCharsMax);
  };
  child.stdout?.on('data', keepOutput);
  child.stderr?.on('data', keepOutput);

  let isStopped = false;
  const stop = async () => {
    if (isStopped) return;
    isStopped = true;
    try {
      child.kill('SIGTERM');
      if (!(await waitForExit(child, stopTimeoutMs))) {
        child.kill('SIGKILL');
        await waitForExit(child, stopTimeoutMs);
        throw new Error(`the API did not stop within ${stopTimeoutMs} ms of SIGTERM`);
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  };

  const deadline = Date.now() + startTimeoutMs;
  while (!(await isHealthy(healthUrl))) {
    const hasExited = child.exitCode !== null || child.signalCode !== null;
    if (hasExited || Date.now() > deadline) {
      await stop().catch(() => {});
      const reason = hasExited
        ? `exited with ${child.exitCode ?? child.signalCode}`
        : `did not answer /api/v1/health within ${startTimeoutMs} ms`;
      throw new Error(`the API ${reason}. Its output:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, healthPollIntervalMs));
  }
  return { baseUrl, stop };
}
