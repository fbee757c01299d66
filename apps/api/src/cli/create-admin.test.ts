import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createServerDatabase, testDatabaseKind } from '../../test/database.ts';
import { type Database, openPglite, openPostgres } from '../db/client.ts';
import { verifyPassword } from '../platform/passwords.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
let dataDir: string;
let serverDatabase: { url: string; drop: () => Promise<void> } | undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'coffer-cli-'));
  if (testDatabaseKind() === 'postgres') serverDatabase = await createServerDatabase();
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
  await serverDatabase?.drop();
});

function createAdmin(args: string[], env: Record<string, string> = {}) {
  return spawnSync('npm', ['run', '--silent', 'create-admin', '--', ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      COFFER_DATA_DIR: dataDir,
      ...(serverDatabase ? { DATABASE_URL: serverDatabase.url } : {}),
      ...env,
    },
  });
}

async function openSame(): Promise<Database> {
  return serverDatabase
    ? openPostgres(serverDatabase.url, 1)
    : openPglite(path.join(dataDir, 'pglite'));
}

it('creates a verified admin with a generated password it prints once', async () => {
  const result = createAdmin(['--email', 'Boss@Bank.example', '--username', 'Grace Hopper']);
  expect(result.status).toBe(0);
  const password = /Password \(shown once.*\): (\S+)/.exec(result.stdout)?.[1];
  expect(password).toBeDefined();
  const db = await openSame();
  const found = await db.query<{
    role: string;
    username: string;
    password_hash: string;
    email_verified_at: Date | null;
    must_change_password: boolean;
  }>(
    'SELECT role, username, password_hash, email_verified_at, must_change_password FROM users WHERE email = $1',
    ['boss@bank.example'],
  );
  await db.close();
  const admin = found.rows[0];
  expect(admin).toMatchObject({ role: 'admin', username: 'Grace Hopper' });
  expect(admin?.email_verified_at).not.toBeNull();
  expect(await verifyPassword(admin?.password_hash ?? '', password ?? '')).toBe(true);
  // A password printed on a terminal is known to more than its owner.
  expect(admin?.must_change_password).toBe(true);
}, 120_000);

it('refuses an existing address, a weak password and a missing email', async () => {
  const again = createAdmin(['--email', 'boss@bank.example']);
  expect(again.status).toBe(1);
  expect(again.stderr).toContain('already has an account');
  const weak = createAdmin(['--email', 'weak@bank.example'], {
    COFFER_ADMIN_PASSWORD: 'password1',
  });
  expect(weak.status).toBe(1);
  expect(weak.stderr).toContain('too weak');
  const missing = createAdmin([]);
  expect(missing.status).toBe(1);
  expect(missing.stderr).toContain('Usage: npm run create-admin');
}, 120_000);

it('creates the two admins four-eyes needs, and no third: role grants are approved by a second admin', async () => {
  const second = createAdmin(['--email', 'second@bank.example']);
  expect(second.status).toBe(0);
  const third = createAdmin(['--email', 'third@bank.example']);
  expect(third.status).toBe(1);
  expect(third.stderr).toContain('There are two admins already');
  expect(third.stderr).toContain('role grant');
  const db = await openSame();
  const found = await db.query('SELECT 1 FROM users WHERE email = $1', ['third@bank.example']);
  await db.close();
  expect(found.rows).toEqual([]);
}, 120_000);

it('says what is wrong with the configuration, as the server does, without a stack trace', () => {
  const result = createAdmin(['--email', 'limits@bank.example'], { COFFER_LIMITS: '{"USD":' });
  expect(result.status).toBe(1);
  expect(result.stderr).toContain('Invalid configuration:\n  COFFER_LIMITS: ');
  expect(result.stderr).not.toMatch(/^\s+at /m);
}, 120_000);
