import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../test/app.ts';
import { openTestDatabase } from '../test/database.ts';
import { signedUpClient, staffClient, strongPassword, TestClient } from '../test/http.ts';
import { pngBytes, storedFiles, submissionFields, uploadDocument } from '../test/kyc.ts';
import type { Database } from './db/client.ts';
import { findSubmission } from './features/kyc/queries.ts';
import { readDocument } from './features/kyc/service.ts';
import { kycDocumentsDirectory, localDocumentStorage } from './features/kyc/storage.ts';
import {
  type RotationOptions,
  refuseMissingKeys,
  rotateSecretKeys,
  secretKeyUse,
} from './key-rotation.ts';
import { parseSecretKeys } from './platform/secret-keys.ts';

const oldKey = 'the-one-key-this-installation-had-before-key-lists';
const newKey = `k2:${randomBytes(32).toString('base64')}`;
const bothKeys = `legacy:${oldKey},${newKey}`;
const customerCount = 6;

let db: Database;
let dataDir: string;

type Customer = {
  email: string;
  secret: string;
  submissionId: string;
  document: Buffer;
};
const customers: Customer[] = [];
/** A customer whose authenticator set-up waits for its first code while keys rotate. */
let pending: { client: TestClient; secret: string };

beforeAll(async () => {
  db = await openTestDatabase();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'coffer-key-rotation-'));
});
afterAll(async () => {
  await db.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** The app as started with `secretKey`, on this file's database and data directory. */
async function withApp(secretKey: string, work: (app: FastifyInstance) => Promise<void>) {
  const app = await buildTestApp(db, { COFFER_SECRET_KEY: secretKey, COFFER_DATA_DIR: dataDir });
  await app.ready();
  try {
    await work(app);
  } finally {
    await app.close();
  }
}

function rotation(secretKey: string, options: Partial<RotationOptions> = {}) {
  const secretKeys = parseSecretKeys(secretKey);
  const storage = localDocumentStorage(kycDocumentsDirectory(dataDir), secretKeys);
  return rotateSecretKeys({ db, secretKeys, storage }, { batchSize: 3, ...options });
}

/** Stops a rotation at the end of the first batch after which `isFarEnough` holds. */
function stoppedWhen(isFarEnough: (rotated: { identityDocuments: number }) => boolean) {
  const stopping = new AbortController();
  return {
    signal: stopping.signal,
    onBatch: (rotated: { identityDocuments: number }) => {
      if (isFarEnough(rotated)) stopping.abort();
    },
  };
}

const codeOf = (secret: string) => new TOTP({ secret, digits: 6, period: 30 }).generate();

async function signInWithCode(app: FastifyInstance, customer: Customer): Promise<string> {
  const login = await new TestClient(app).post('/api/v1/auth/login', {
    email: customer.email,
    password: strongPassword,
  });
  expect(login.json().status).toBe('second_factor_required');
  const second = await new TestClient(app).post('/api/v1/auth/login/second-factor', {
    challengeToken: login.json().challengeToken,
    code: codeOf(customer.secret),
  });
  return second.json().status ?? second.json().error.code;
}

/** Every customer signs in with their authenticator code, and staff open every document. */
async function expectEverythingOpens(app: FastifyInstance): Promise<void> {
  // Each 30-second code is good once; the phases of this file reuse the current one.
  await db.query('UPDATE users SET totp_last_used_step = NULL');
  const staff = await staffClient(app, 'support');
  for (const customer of customers) {
    expect(await signInWithCode(app, customer)).toBe('signed_in');
    const viewed = await staff.client.get(`/api/v1/admin/kyc/${customer.submissionId}/document`);
    expect(viewed.statusCode).toBe(200);
    expect(viewed.rawPayload.equals(customer.document)).toBe(true);
  }
}

async function storedKeyIds(): Promise<{ secrets: string[]; documents: string[] }> {
  const secrets = await db.query<{ sealed: string }>(
    'SELECT totp_secret_encrypted AS sealed FROM users WHERE totp_secret_encrypted IS NOT NULL',
  );
  const documents = await db.query<{ secret_key_id: string }>(
    'SELECT secret_key_id FROM kyc_documents WHERE deleted_at IS NULL',
  );
  return {
    secrets: secrets.rows.map((row) => (row.sealed.startsWith('v1.k2.') ? 'k2' : 'legacy')),
    documents: documents.rows.map((row) => row.secret_key_id),
  };
}

describe('rotating the secret key', () => {
  it('starts from what one key encrypted: codes and documents work as before', async () => {
    await withApp(oldKey, async (app) => {
      for (let index = 0; index < customerCount; index += 1) {
        const { client, body } = await signedUpClient(app);
        const setup = await client.post('/api/v1/profile/totp/setup', {
          currentPassword: strongPassword,
        });
        const { secret } = setup.json();
        expect(
          (await client.post('/api/v1/profile/totp/enable', { code: codeOf(secret) })).statusCode,
        ).toBe(200);
        const document = pngBytes(2_000 + index);
        const upload = await uploadDocument(client, document);
        const submission = await client.post(
          '/api/v1/kyc/submissions',
          submissionFields(upload.json().id),
        );
        customers.push({ email: body.email, secret, submissionId: submission.json().id, document });
      }
      const { client } = await signedUpClient(app);
      const setup = await client.post('/api/v1/profile/totp/setup', {
        currentPassword: strongPassword,
      });
      pending = { client, secret: setup.json().secret };
      await expectEverythingOpens(app);
    });
    expect(await storedKeyIds()).toEqual({
      secrets: Array(customerCount).fill('legacy'),
      documents: Array(customerCount).fill('legacy'),
    });
  });

  it('refuses to start without the key that encrypted them, saying how many records need it', async () => {
    await expect(refuseMissingKeys(db, parseSecretKeys(newKey))).rejects.toThrow(
      'COFFER_SECRET_KEY: key legacy is not in the list, yet 13 records need it (7 authenticator secrets, 6 identity documents, 0 webhook secrets)',
    );
    await expect(refuseMissingKeys(db, parseSecretKeys(bothKeys))).resolves.toBeUndefined();
  });

  it('keeps codes and documents working halfway through, and resumes where a run stopped', async () => {
    const first = await rotation(
      bothKeys,
      stoppedWhen(() => true),
    );
    expect(first).toMatchObject({
      keyId: 'k2',
      isComplete: false,
      rotated: { authenticatorSecrets: 3, identityDocuments: 0 },
      remaining: { legacy: { authenticatorSecrets: 4, identityDocuments: 6 } },
    });
    await withApp(bothKeys, expectEverythingOpens);

    const second = await rotation(
      bothKeys,
      stoppedWhen((rotated) => rotated.identityDocuments > 0),
    );
    expect(second).toMatchObject({
      isComplete: false,
      rotated: { authenticatorSecrets: 4, identityDocuments: 3 },
      remaining: { legacy: { authenticatorSecrets: 0, identityDocuments: 3 } },
    });
    const halfway = await storedKeyIds();
    expect(halfway.documents.filter((keyId) => keyId === 'k2')).toHaveLength(3);
    await withApp(bothKeys, expectEverythingOpens);

    // A viewing that read its row before the run finds the file moved, and reads it again.
    const stillLegacy = await db.query<{ id: string }>(
      `SELECT s.id FROM kyc_submissions s JOIN kyc_documents d ON d.id = s.document_id
        WHERE d.secret_key_id = 'legacy' LIMIT 1`,
    );
    const staleRow = await findSubmission(db, stillLegacy.rows[0]?.id ?? '');
    if (!staleRow) throw new Error('a document is still under the old key');

    const last = await rotation(bothKeys);
    expect(last).toMatchObject({
      isComplete: true,
      rotated: { authenticatorSecrets: 0, identityDocuments: 3 },
      refused: { userIds: [], documentIds: [] },
      remaining: {},
    });
    const secretKeys = parseSecretKeys(bothKeys);
    const storage = localDocumentStorage(kycDocumentsDirectory(dataDir), secretKeys);
    const reread = await readDocument({ db, storage }, staleRow);
    expect(reread.submission.secret_key_id).toBe('k2');
    const expected = customers.find((customer) => customer.submissionId === staleRow.id);
    expect(
      Buffer.concat(await reread.body.toArray()).equals(expected?.document ?? Buffer.alloc(0)),
    ).toBe(true);
    const audited = await db.query<{ after: { isComplete: boolean; rotated: unknown } }>(
      "SELECT after FROM audit_events WHERE action = 'secret_keys_rotated' ORDER BY id",
    );
    expect(audited.rows.map((row) => row.after.isComplete)).toEqual([false, false, true]);
    expect(audited.rows[2]?.after.rotated).toEqual({
      authenticatorSecrets: 0,
      identityDocuments: 3,
      webhookSecrets: 0,
      dataExports: 0,
    });
  });

  it('works with the new key alone once nothing needs the old one, whose files are gone', async () => {
    expect(await storedKeyIds()).toEqual({
      secrets: Array(customerCount).fill('k2'),
      documents: Array(customerCount).fill('k2'),
    });
    expect(Object.fromEntries(await secretKeyUse(db))).toEqual({
      k2: { authenticatorSecrets: 7, identityDocuments: 6, webhookSecrets: 0, dataExports: 0 },
    });
    await refuseMissingKeys(db, parseSecretKeys(newKey));
    await withApp(newKey, async (app) => {
      expect((await storedFiles(app)).length).toBe(customerCount);
      await expectEverythingOpens(app);
      // The set-up begun under the old key ends under the new one.
      const resumed = new TestClient(app);
      resumed.cookie = pending.client.cookie;
      const confirmed = await resumed.post('/api/v1/profile/totp/enable', {
        code: codeOf(pending.secret),
      });
      expect(confirmed.statusCode).toBe(200);
    });
  });

  it('refuses a secret or a document changed at rest: not served, not rotated', async () => {
    const [tamperedUser, tamperedDocument] = [customers[0], customers[1]];
    if (!tamperedUser || !tamperedDocument) throw new Error('customers were made first');
    const sealed = await db.query<{ id: string; sealed: string }>(
      'SELECT id, totp_secret_encrypted AS sealed FROM users WHERE email = $1',
      [tamperedUser.email],
    );
    const { id: userId, sealed: secret } = sealed.rows[0] ?? expect.fail('no user');
    const parts = secret.split('.');
    const ciphertext = Buffer.from(parts[4] ?? '', 'base64url');
    ciphertext[0] = (ciphertext[0] ?? 0) ^ 1;
    parts[4] = ciphertext.toString('base64url');
    await db.query('UPDATE users SET totp_secret_encrypted = $2 WHERE id = $1', [
      userId,
      parts.join('.'),
    ]);
    const file = await db.query<{ storage_key: string; document_id: string }>(
      `SELECT d.storage_key, d.id AS document_id FROM kyc_submissions s
         JOIN kyc_documents d ON d.id = s.document_id WHERE s.id = $1`,
      [tamperedDocument.submissionId],
    );
    const { storage_key: storageKey, document_id: documentId } = file.rows[0] ?? {};
    const filePath = path.join(kycDocumentsDirectory(dataDir), storageKey ?? '');
    const bytes = await readFile(filePath);
    // A byte in the middle of the ciphertext: the tag is only checked after the last one.
    bytes[100] = (bytes[100] ?? 0) ^ 0xff;
    await writeFile(filePath, bytes);

    await withApp(newKey, async (app) => {
      expect(await signInWithCode(app, tamperedUser)).not.toBe('signed_in');
      const staff = await staffClient(app, 'support');
      const viewed = await staff.client.get(
        `/api/v1/admin/kyc/${tamperedDocument.submissionId}/document`,
      );
      expect(viewed.statusCode).toBe(500);
      expect(viewed.headers['content-type']).toMatch(/application\/json/);
      expect(viewed.rawPayload.includes(tamperedDocument.document.subarray(200, 400))).toBe(false);
      const views = await db.query(
        "SELECT 1 FROM audit_events WHERE action = 'kyc_document_viewed' AND actor_user_id = $1",
        [staff.user.id],
      );
      expect(views.rows).toHaveLength(0);
    });

    const nextKeys = `${newKey},k3:${randomBytes(32).toString('base64')}`;
    const report = await rotation(nextKeys);
    expect(report.refused).toEqual({
      userIds: [userId],
      documentIds: [documentId],
      webhookEndpointIds: [],
    });
    expect(report.remaining).toEqual({
      k2: { authenticatorSecrets: 1, identityDocuments: 1, webhookSecrets: 0, dataExports: 0 },
    });
    await expect(
      refuseMissingKeys(db, parseSecretKeys(nextKeys.split(',')[1] ?? '')),
    ).rejects.toThrow('key k2 is not in the list, yet 2 records need it');
  });
});
