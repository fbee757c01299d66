import { type ChildProcess, spawn } from 'node:child_process';
import { chmod, lstat, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServerDatabase, testDatabaseKind } from '../test/database.ts';
import { openPglite, openPostgres } from './db/client.ts';

const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// A loaded machine (other test files running) may take a minute to start the server.
const startTimeoutMs = 90_000;

let dataDir: string;
let serverDatabase: { url: string; drop: () => Promise<void> } | undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'coffer-main-'));
  if (testDatabaseKind() === 'postgres') serverDatabase = await createServerDatabase();
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
  await serverDatabase?.drop();
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function startMain(env: Record<string, string>): { child: ChildProcess; output: () => string } {
  // Node itself with tsx's loader, not the tsx command: that one relays SIGTERM to its child
  // and, when the child does not report the signal within 30 ms (a busy event loop on a
  // loaded machine), sends it again and then SIGKILL: exit 143, no graceful shutdown.
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: apiDir,
    env: {
      PATH: process.env.PATH,
      COFFER_DATA_DIR: dataDir,
      COFFER_LOG_LEVEL: 'info',
      ...(serverDatabase ? { DATABASE_URL: serverDatabase.url } : {}),
      ...env,
    },
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  return { child, output: () => output };
}

/** Every directory and file under `root` whose mode lets another account in, with its mode. */
async function openToOthers(root: string): Promise<{ entry: string; isDirectory: boolean }[]> {
  const found: { entry: string; isDirectory: boolean }[] = [];
  const visit = async (entry: string) => {
    const stats = await lstat(entry);
    if ((stats.mode & 0o077) !== 0) {
      found.push({ entry: path.relative(root, entry) || '.', isDirectory: stats.isDirectory() });
    }
    if (stats.isDirectory()) {
      for (const name of await readdir(entry)) await visit(path.join(entry, name));
    }
  };
  await visit(root);
  return found;
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.on('exit', (code) => resolve(code)));
}

async function waitForHealth(baseUrl: string): Promise<Response> {
  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    try {
      return await fetch(`${baseUrl}/api/v1/health`);
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

describe('the server process', { timeout: 120_000 }, () => {
  it('refuses to start with invalid configuration, naming the variable', async () => {
    const { child, output } = startMain({ PORT: 'eighty' });
    expect(await exitOf(child)).toBe(1);
    expect(output()).toContain('PORT: ');
    expect(output()).toContain('Invalid configuration');
  });

  it('stops when no database answers at DATABASE_URL, naming the variable', async () => {
    const nobodyListens = await freePort();
    const { child, output } = startMain({
      DATABASE_URL: `postgres://coffer@127.0.0.1:${nobodyListens}/coffer`,
    });
    expect(await exitOf(child)).toBe(1);
    expect(output()).toContain(
      `DATABASE_URL: no PostgreSQL primary answers at 127.0.0.1:${nobodyListens} (ECONNREFUSED)`,
    );
  });

  it('starts on the configured database, migrates it, and shuts down cleanly on SIGTERM', async () => {
    const port = await freePort();
    const { child, output } = startMain({ PORT: String(port) });
    const exited = exitOf(child);
    const health = await waitForHealth(`http://127.0.0.1:${port}`);
    expect(await health.json()).toMatchObject({ status: 'ok', database: testDatabaseKind() });

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output()).toContain('shutting down');

    // The database was closed properly: it opens again with the schema in place.
    const db = serverDatabase
      ? openPostgres(serverDatabase.url, 1)
      : await openPglite(path.join(dataDir, 'pglite'));
    const migrations = await db.query('SELECT tag FROM schema_migrations ORDER BY tag');
    const journal = JSON.parse(
      await readFile(path.join(apiDir, 'drizzle/meta/_journal.json'), 'utf8'),
    );
    const expectedTags = journal.entries.map((entry: { tag: string }) => entry.tag);
    expect(expectedTags.length).toBeGreaterThan(2);
    expect(migrations.rows.map((row) => row.tag)).toEqual(expectedTags);
    await db.close();
  });

  it('keeps other accounts out of a data directory it finds open, and says what it fixed', async () => {
    const looseDir = await mkdtemp(path.join(os.tmpdir(), 'coffer-main-loose-'));
    try {
      await chmod(looseDir, 0o755);
      if (!serverDatabase) {
        // PGlite writes its files 0666 whatever the umask: a database as it lies on disk.
        const db = await openPglite(path.join(looseDir, 'pglite'));
        await db.close();
        await chmod(path.join(looseDir, 'pglite'), 0o755);
      }
      const documents = path.join(looseDir, 'kyc-documents');
      await mkdir(documents, { mode: 0o755 });
      await chmod(documents, 0o755);
      await writeFile(path.join(documents, 'document-1'), 'encrypted bytes', { mode: 0o666 });
      await chmod(path.join(documents, 'document-1'), 0o666);
      const looseBefore = await openToOthers(looseDir);
      expect(looseBefore.map(({ entry }) => entry)).toEqual(
        expect.arrayContaining(['.', 'kyc-documents/document-1']),
      );

      const port = await freePort();
      const { child, output } = startMain({ PORT: String(port), COFFER_DATA_DIR: looseDir });
      const exited = exitOf(child);
      await waitForHealth(`http://127.0.0.1:${port}`);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);

      // Those found loose were tightened at start-up, and what PGlite rewrote while it ran
      // once it was closed.
      expect(await openToOthers(looseDir)).toEqual([]);
      expect(output()).toMatch(/other accounts could (read|open)[^"]*data directory/);
      expect(output()).toContain(looseDir);
    } finally {
      await rm(looseDir, { recursive: true, force: true });
    }
  });

  it('starts outside the sandbox only with its own secret key, and warns at every start that mail stays in the outbox', async () => {
    const outsideSandbox = { COFFER_SANDBOX: '0', COFFER_MAIL: 'outbox-only' };
    const refused = startMain(outsideSandbox);
    expect(await exitOf(refused.child)).toBe(1);
    expect(refused.output()).toContain('COFFER_SECRET_KEY: required outside the sandbox');

    const port = await freePort();
    const { child, output } = startMain({
      ...outsideSandbox,
      PORT: String(port),
      COFFER_SECRET_KEY: 'a-key-of-this-installation-and-no-other-one',
    });
    const exited = exitOf(child);
    await waitForHealth(`http://127.0.0.1:${port}`);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output()).toMatch(/"level":40,[^\n]*COFFER_MAIL=outbox-only/);
  });
});
