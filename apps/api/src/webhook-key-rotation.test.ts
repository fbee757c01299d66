// Webhook secrets are sealed with COFFER_SECRET_KEY like authenticator secrets, so key
// rotation (ADR 036) moves them too, and deliveries stay verifiable with the same secret.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../test/app.ts';
import { createCustomer } from '../test/customers.ts';
import { openTestDatabase } from '../test/database.ts';
import { staffClient } from '../test/http.ts';
import {
  answerWith,
  type Receiver,
  registerWebhook,
  runDeliveries,
  startReceiver,
} from '../test/webhooks.ts';
import type { Database } from './db/client.ts';
import { localDocumentStorage } from './features/kyc/storage.ts';
import { refuseMissingKeys, rotateSecretKeys, secretKeyUse } from './key-rotation.ts';
import { sealedSecretKeyId } from './platform/crypto.ts';
import { parseSecretKeys } from './platform/secret-keys.ts';

const firstKey = `k1:${randomBytes(32).toString('base64')}`;
const secondKey = `k2:${randomBytes(32).toString('base64')}`;
const bothKeys = `${firstKey},${secondKey}`;

let db: Database;
let receiver: Receiver;

beforeAll(async () => {
  db = await openTestDatabase();
  receiver = await startReceiver(answerWith(200));
});
afterAll(async () => {
  await receiver.close();
  await db.close();
});

async function withApp(secretKey: string, work: (app: FastifyInstance) => Promise<void>) {
  const app = await buildTestApp(db, {
    COFFER_SECRET_KEY: secretKey,
    COFFER_WEBHOOKS_ALLOW_PRIVATE: '1',
  });
  await app.ready();
  try {
    await work(app);
  } finally {
    await app.close();
  }
}

async function sealedKeyIds(): Promise<string[]> {
  const found = await db.query<{ secret_encrypted: string; previous_secret_encrypted: string }>(
    'SELECT secret_encrypted, previous_secret_encrypted FROM webhook_endpoints',
  );
  return found.rows.flatMap((row) => [
    sealedSecretKeyId(row.secret_encrypted),
    sealedSecretKeyId(row.previous_secret_encrypted),
  ]);
}

describe('webhook secrets and key rotation', () => {
  it('re-encrypts both secrets of a rolled endpoint, which still sign as before', async () => {
    let secrets: string[] = [];
    await withApp(firstKey, async (app) => {
      const admin = (await staffClient(app, 'admin')).client;
      const endpoint = await registerWebhook(admin, receiver.url, ['money.deposit']);
      const rolled = await admin.post(`/api/v1/admin/webhooks/${endpoint.id}/secret`);
      secrets = [endpoint.secret, rolled.json().secret];
    });
    expect(await sealedKeyIds()).toEqual(['k1', 'k1']);
    await expect(refuseMissingKeys(db, parseSecretKeys(secondKey))).rejects.toThrow(
      '2 webhook secrets',
    );

    const keys = parseSecretKeys(bothKeys);
    const report = await rotateSecretKeys(
      { db, secretKeys: keys, storage: localDocumentStorage('/nonexistent', keys) },
      { batchSize: 10 },
    );
    expect(report.rotated.webhookSecrets).toBe(2);
    expect(report.remaining).toEqual({});
    expect(await sealedKeyIds()).toEqual(['k2', 'k2']);
    expect(Object.fromEntries(await secretKeyUse(db))).toMatchObject({
      k2: { webhookSecrets: 2 },
    });

    await withApp(secondKey, async (app) => {
      await createCustomer(app, { balance: '3.00' });
      await runDeliveries(app);
    });
    const [delivered] = receiver.received;
    if (!delivered) throw new Error('nothing delivered');
    for (const secret of secrets) {
      expect(new Webhook(secret).verify(delivered.body, delivered.headers)).toBeTruthy();
    }
  });
});
