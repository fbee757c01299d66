import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createServerDatabase, testDatabaseKind } from '../../test/database.ts';
import { type Database, openPglite, openPostgres } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { insertUser } from '../features/auth/queries.ts';
import { decryptSecret, encryptSecret } from '../platform/crypto.ts';
import { newId } from '../platform/ids.ts';
import { parseSecretKeys } from '../platform/secret-keys.ts';

const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const oldKey = 'the-key-this-installation-started-with-long-ago';
const newKey = `k2:${randomBytes(32).toString('base64')}`;
const authenticatorSecret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
let dataDir: string;
let serverDatabase: { url: string; drop: () => Promise<void> } | undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'coffer-rotate-keys-'));
  if (testDatabaseKind() === 'postgres') serverDatabase = await createServerDatabase();
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
  await serverDatabase?.drop();
});

/** `src/{script}` as an operator runs it, with the server's settings and this key. */
function run(script: 'cli/rotate-keys.ts' | 'main.ts', secretKey: string) {
  return spawnSync(process.execPath, ['--import', 'tsx', `src/${script}`], {
    cwd: apiDir,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      COFFER_DATA_DIR: dataDir,
      COFFER_SANDBOX: '0',
      COFFER_MAIL: 'outbox-only',
      COFFER_SECRET_KEY: secretKey,
      ...(serverDatabase ? { DATABASE_URL: serverDatabase.url } : {}),
    },
  });
}

async function openSame(): Promise<Database> {
  return serverDatabase
    ? openPostgres(serverDatabase.url, 1)
    : openPglite(path.join(dataDir, 'pglite'));
}

it('stops at a malformed key list, naming the variable', () => {
  const twice = run('cli/rotate-keys.ts', `${newKey},${newKey}`);
  expect(twice.status).toBe(1);
  expect(twice.stderr).toContain('COFFER_SECRET_KEY: key id k2 appears twice');
}, 120_000);

it('refuses the app and the command a key list without a key still in use, then rotates under the new key', async () => {
  const db = await openSame();
  const userId = newId();
  try {
    await migrate(db);
    await insertUser(db, {
      id: userId,
      username: 'Ada',
      email: 'ada@example.com',
      phone: null,
      country: 'US',
      role: 'customer',
      passwordHash: 'not-used-here',
      isEmailVerified: true,
    });
    await db.query('UPDATE users SET totp_secret_encrypted = $2 WHERE id = $1', [
      userId,
      encryptSecret(authenticatorSecret, parseSecretKeys(oldKey)),
    ]);
  } finally {
    await db.close();
  }
  const missing =
    'COFFER_SECRET_KEY: key legacy is not in the list, yet 1 records need it (1 authenticator secrets, 0 identity documents, 0 webhook secrets)';
  for (const script of ['main.ts', 'cli/rotate-keys.ts'] as const) {
    const refused = run(script, newKey);
    expect(refused.status, script).toBe(1);
    expect(refused.stderr, script).toContain(missing);
  }

  const bothKeys = `legacy:${oldKey},${newKey}`;
  const rotated = run('cli/rotate-keys.ts', bothKeys);
  expect(rotated.stderr).toBe('');
  expect(rotated.status).toBe(0);
  expect(rotated.stdout).toContain(
    'Re-encrypted under k2: 1 authenticator secrets, 0 identity documents, 0 webhook secrets.',
  );
  expect(rotated.stdout).toContain('Nothing needs an older key');

  const after = await openSame();
  try {
    const sealed = await after.query<{ sealed: string }>(
      'SELECT totp_secret_encrypted AS sealed FROM users WHERE id = $1',
      [userId],
    );
    const secret = sealed.rows[0]?.sealed ?? '';
    expect(secret.startsWith('v1.k2.')).toBe(true);
    expect(decryptSecret(secret, parseSecretKeys(newKey))).toBe(authenticatorSecret);
    const audited = await after.query<{ after: unknown; reason: string }>(
      "SELECT after, reason FROM audit_events WHERE action = 'secret_keys_rotated'",
    );
    expect(audited.rows).toEqual([
      {
        reason: 'npm run rotate-keys',
        after: expect.objectContaining({
          keyId: 'k2',
          rotated: {
            authenticatorSecrets: 1,
            identityDocuments: 0,
            webhookSecrets: 0,
            dataExports: 0,
          },
          remaining: {},
          isComplete: true,
        }),
      },
    ]);
  } finally {
    await after.close();
  }
}, 240_000);
