import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServerDatabase, testDatabaseKind } from '../test/database.ts';
import { openPglite, openPostgres } from './db/client.ts';

const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsxBinary = path.resolve(apiDir, '../../node_modules/.bin/tsx');
const startTimeoutMs = 30_000;

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
  const child = spawn(tsxBinary, ['src/main.ts'], {
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

describe('the server process', () => {
  it('refuses to start with invalid configuration, naming the variable', async () => {
    const { child, output } = startMain({ PORT: 'eighty' });
    expect(await exitOf(child)).toBe(1);
    expect(output()).toContain('PORT: ');
    expect(output()).toContain('Invalid configuration');
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
});
