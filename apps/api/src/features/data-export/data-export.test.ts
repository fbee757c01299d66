import { randomUUID } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { toCurrencyCode } from '@coffer/contracts/currencies';
import { entryKindLabels } from '@coffer/contracts/ledger';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { createCustomer, type TestCustomer } from '../../../test/customers.ts';
import { runExportJob } from '../../../test/data-exports.ts';
import { lastEmailTo, strongPassword, TestClient } from '../../../test/http.ts';
import { pngBytes, submitted } from '../../../test/kyc.ts';
import { savePayee } from '../../../test/scheduled-payments.ts';
import { readZip } from '../../../test/zip.ts';
import type { Database } from '../../db/client.ts';
import { translateText } from '../../platform/i18n.ts';
import { newId } from '../../platform/ids.ts';
import { kycDocumentsDirectory } from '../kyc/storage.ts';
import { expireExportBatch, exportsBySecretKeyId } from './key-rotation.ts';
import { dataExportsDirectory } from './routes.ts';

let app: FastifyInstance;
let db: Database;
// A data directory of this file's own: the tests look at the export files on disk.
const dataDir = path.join(os.tmpdir(), `coffer-export-test-${randomUUID()}`);
const dayMs = 24 * 60 * 60 * 1000;
const cardNumber = '4000001234564242';

useTestApp(
  (opened) => {
    ({ app, db } = opened);
  },
  { env: { COFFER_DATA_DIR: dataDir } },
);

async function requestExport(client: TestClient): Promise<string> {
  const asked = await client.post('/api/v1/data-exports');
  expect(asked.statusCode).toBe(202);
  return asked.json().id;
}

/** A customer whose export is built and ready. */
async function readyExport(customer: TestCustomer): Promise<string> {
  const exportId = await requestExport(customer.client);
  await runExportJob(app, 'data-export-build');
  const overview = await customer.client.get('/api/v1/data-exports');
  expect(overview.json().latest).toMatchObject({ id: exportId, status: 'ready' });
  return exportId;
}

function unlock(client: TestClient, exportId: string, currentPassword = strongPassword) {
  return client.post(`/api/v1/data-exports/${exportId}/unlock`, { currentPassword });
}

async function exportFiles(): Promise<string[]> {
  return readdir(dataExportsDirectory(dataDir)).catch(() => []);
}

/** A second session of the same customer, as another browser signs in. */
async function otherSessionOf(customer: TestCustomer): Promise<TestClient> {
  const other = new TestClient(app);
  const login = await other.post('/api/v1/auth/login', {
    email: customer.body.email,
    password: strongPassword,
  });
  expect(login.statusCode).toBe(200);
  return other;
}

describe('export my data', () => {
  it('builds one zip with every section, the identity document as uploaded and no card number', async () => {
    const customer = await createCustomer(app, { balance: '123.45' });
    await submitted(customer.client);
    const cardId = newId();
    const token = `tok_${cardId}`;
    await db.query(
      `INSERT INTO sandbox_issuer_cards (token, reference, number, security_code, expiry_month, expiry_year, holder_name)
       VALUES ($1, $2, $3, '987', 12, 2030, 'Card Holder')`,
      [token, cardId, cardNumber],
    );
    await db.query(
      `INSERT INTO cards (id, user_id, account_id, status, issuer_token, last_four, expiry_month,
                          expiry_year, holder_name, currency, fee_minor, weekly_limit_minor)
       VALUES ($1, $2, $3, 'issued', $4, '4242', 12, 2030, 'Card Holder', 'USD', 0, 50000)`,
      [cardId, customer.user.id, customer.wallet.id, token],
    );
    await db.query(
      `INSERT INTO notifications (id, user_id, kind, text) VALUES ($1, $2, 'money_received', 'Export test note')`,
      [newId(), customer.user.id],
    );
    const support = await customer.client.post('/api/v1/support/messages', {
      body: 'A question for the export',
    });
    expect(support.statusCode).toBeLessThan(300);

    const friend = await createCustomer(app);
    const payeeId = await savePayee(app, customer.user.id, 'Flatmate', {
      kind: 'coffer',
      recipient: friend.wallet.number,
    });
    const schedule = await customer.client.post('/api/v1/scheduled-payments', {
      payeeId,
      amount: '25.00',
      reference: 'Rent share',
      frequency: 'monthly',
      startDate: '2099-01-05',
      dayOfMonth: 5,
      endType: 'never',
    });
    expect(schedule.statusCode, schedule.body).toBe(201);

    // A second wallet in another currency (issue #33), as opening one through the API makes it.
    const euroWallet = await app.ledger.openWallet(
      customer.user.id,
      toCurrencyCode('EUR'),
      db,
      false,
    );

    const exportId = await requestExport(customer.client);
    const building = await customer.client.get('/api/v1/data-exports');
    expect(building.json().latest).toMatchObject({ id: exportId, status: 'building' });
    await runExportJob(app, 'data-export-build');

    const ready = (await customer.client.get('/api/v1/data-exports')).json().latest;
    expect(ready.status).toBe('ready');
    expect(ready.sectionsDone).toBe(ready.sectionsTotal);
    const expiresInMs = Date.parse(ready.expiresAt) - Date.parse(ready.readyAt);
    expect(expiresInMs).toBe(7 * dayMs);
    const email = await lastEmailTo(db, customer.body.email);
    expect(email.subject).toMatch(/data export .* is ready/);
    expect(email.text).toContain('/profile/export');

    const unlocked = await unlock(customer.client, exportId);
    expect(unlocked.statusCode).toBe(200);
    const download = await customer.client.get(unlocked.json().downloadUrl);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/zip');
    expect(download.headers['content-disposition']).toMatch(/attachment; filename="coffer-data-/);
    expect(String(download.rawPayload.length)).toBe(ready.sizeBytes);

    const files = await readZip(download.rawPayload);
    const names = [...files.keys()];
    for (const name of [
      'README.txt',
      'profile.json',
      'wallets.json',
      'transactions.csv',
      'transactions.json',
      'statements.json',
      'loans.json',
      'cards.json',
      'payees.json',
      'scheduled-payments.json',
      'bulk-payments.json',
      'disputes.json',
      'support-messages.json',
      'notifications.json',
      'sign-in-history.json',
      'consents.json',
      'identity-documents.json',
    ]) {
      expect(names).toContain(name);
    }
    const text = (name: string) => files.get(name)?.toString('utf8') ?? '';
    const json = (name: string) => JSON.parse(text(name));
    expect(text('README.txt')).toContain('transactions.csv');
    expect(json('profile.json')).toMatchObject({ email: customer.body.email });
    expect(json('wallets.json')).toEqual([
      expect.objectContaining({
        accountNumber: customer.wallet.number,
        balance: { amountMinor: '12345', currency: 'USD' },
      }),
      expect.objectContaining({
        accountNumber: euroWallet.number,
        balance: { amountMinor: '0', currency: 'EUR' },
      }),
    ]);
    expect(text('transactions.csv')).toContain(',12345,USD,12345\r\n');
    expect(text('transactions.csv')).toContain(`${customer.wallet.number},`);
    expect(json('transactions.json')).toEqual([
      expect.objectContaining({
        accountNumber: customer.wallet.number,
        amount: { amountMinor: '12345', currency: 'USD' },
      }),
    ]);
    expect(json('statements.json').wallets).toEqual([
      expect.objectContaining({
        accountNumber: customer.wallet.number,
        months: [expect.anything()],
      }),
      expect.objectContaining({ accountNumber: euroWallet.number, months: [] }),
    ]);
    expect(json('payees.json')).toMatchObject([
      { nickname: 'Flatmate', kind: 'coffer', target: { recipient: friend.wallet.number } },
    ]);
    expect(json('scheduled-payments.json')).toMatchObject([
      {
        amount: { amountMinor: '2500', currency: 'USD' },
        reference: 'Rent share',
        frequency: 'monthly',
        status: 'active',
      },
    ]);
    expect(json('bulk-payments.json')).toEqual([]);
    expect(json('cards.json').cards).toEqual([
      expect.objectContaining({ id: cardId, lastFourDigits: '4242' }),
    ]);
    expect(json('support-messages.json')).toEqual([
      expect.objectContaining({ from: 'you', body: 'A question for the export' }),
    ]);
    expect(json('notifications.json')).toEqual(
      expect.arrayContaining([expect.objectContaining({ text: 'Export test note' })]),
    );
    expect(json('sign-in-history.json').sessions.length).toBeGreaterThan(0);
    expect(json('consents.json')).toHaveProperty('termsAcceptances');
    const documents = json('identity-documents.json');
    expect(documents).toHaveLength(1);
    expect(documents[0].submission).toMatchObject({ idNumber: 'P1234567' });
    expect(files.get(documents[0].file)).toEqual(pngBytes());
    const everything = Buffer.concat([...files.values()]).toString('latin1');
    expect(everything).not.toContain(cardNumber);
    const [card] = json('cards.json').cards;
    expect(Object.keys(card).filter((key) => /number|security|cvv|code/i.test(key))).toEqual([]);

    const audited = await db.query<{ action: string }>(
      `SELECT action FROM audit_events WHERE subject_user_id = $1 AND action LIKE 'data_export_%'
        ORDER BY id`,
      [customer.user.id],
    );
    expect(audited.rows.map((row) => row.action)).toEqual([
      'data_export_requested',
      'data_export_downloaded',
    ]);
  });

  it('writes README.txt and the CSV’s headings and types in the customer’s language', async () => {
    const customer = await createCustomer(app, { balance: '123.45' });
    const chosen = await customer.client.request('PUT', '/api/v1/profile/language', {
      language: 'ja',
    });
    expect(chosen.statusCode).toBe(200);
    const exportId = await readyExport(customer);
    const unlocked = await unlock(customer.client, exportId);
    const files = await readZip(
      (await customer.client.get(unlocked.json().downloadUrl)).rawPayload,
    );
    const text = (name: string) => files.get(name)?.toString('utf8') ?? '';
    const ja = (english: string) => translateText('ja', english);
    const readme = text('README.txt');
    expect(readme).toContain(ja('The same transactions as JSON.'));
    expect(readme).not.toContain('The same transactions as JSON.');
    // File names stay as they are: the files are named so.
    expect(readme).toContain('transactions.json');
    const [heading, firstLine] = text('transactions.csv').split('\r\n');
    expect(heading).toContain(ja('Balance after (minor units)'));
    expect(heading).not.toMatch(/Balance|Wallet/);
    // The type in words, in Japanese; the kind's code and the amounts as a program reads them.
    expect(firstLine).toContain(`,${ja(entryKindLabels.deposit)},deposit,`);
    expect(firstLine).toContain(',12345,USD,12345');
  });

  it('builds one export and one zip when asked twice at once', async () => {
    const customer = await createCustomer(app);
    const filesBefore = await exportFiles();
    const [first, second] = await Promise.all([
      customer.client.post('/api/v1/data-exports'),
      customer.client.post('/api/v1/data-exports'),
    ]);
    expect(first.statusCode).toBe(202);
    expect(second.statusCode).toBe(202);
    expect(second.json().id).toBe(first.json().id);
    const rows = await db.query('SELECT id FROM data_exports WHERE user_id = $1', [
      customer.user.id,
    ]);
    expect(rows.rows).toHaveLength(1);
    await runExportJob(app, 'data-export-build');
    expect((await exportFiles()).length).toBe(filesBefore.length + 1);
  });

  it("answers another customer's export as not found", async () => {
    const owner = await createCustomer(app);
    const other = await createCustomer(app);
    const exportId = await readyExport(owner);
    expect((await unlock(other.client, exportId)).statusCode).toBe(404);
    expect((await other.client.get(`/api/v1/data-exports/${exportId}/download`)).statusCode).toBe(
      404,
    );
    expect((await other.client.get('/api/v1/data-exports')).json().latest).toBeNull();
  });

  it('refuses the download without the password again in this session', async () => {
    const customer = await createCustomer(app);
    const exportId = await readyExport(customer);
    const downloadUrl = `/api/v1/data-exports/${exportId}/download`;
    const refused = await customer.client.get(downloadUrl);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('reauthentication_required');

    const wrong = await unlock(customer.client, exportId, 'not-the-password');
    expect(wrong.json().error.code).toBe('wrong_password');
    expect((await customer.client.get(downloadUrl)).statusCode).toBe(403);

    // The password given in another session unlocks that session only.
    const other = await otherSessionOf(customer);
    expect((await unlock(other, exportId)).statusCode).toBe(200);
    expect((await customer.client.get(downloadUrl)).statusCode).toBe(403);
    expect((await other.get(downloadUrl)).statusCode).toBe(200);
  });

  it('refuses an expired export, and the expiry job removes its file', async () => {
    const customer = await createCustomer(app);
    const exportId = await readyExport(customer);
    expect((await unlock(customer.client, exportId)).statusCode).toBe(200);
    const { rows } = await db.query<{ storage_key: string }>(
      'SELECT storage_key FROM data_exports WHERE id = $1',
      [exportId],
    );
    const storageKey = rows[0]?.storage_key ?? '';
    expect(await exportFiles()).toContain(storageKey);

    // Seven days and a moment later, before the job has run: already refused.
    await db.query(
      `UPDATE data_exports SET expires_at = now() - interval '1 second' WHERE id = $1`,
      [exportId],
    );
    const refused = await customer.client.get(`/api/v1/data-exports/${exportId}/download`);
    expect(refused.statusCode).toBe(410);
    expect(refused.json().error.code).toBe('data_export_expired');
    expect((await customer.client.get('/api/v1/data-exports')).json().latest.status).toBe(
      'expired',
    );

    await runExportJob(app, 'data-export-expiry');
    expect(await exportFiles()).not.toContain(storageKey);
    const after = await db.query<{ status: string }>(
      'SELECT status FROM data_exports WHERE id = $1',
      [exportId],
    );
    expect(after.rows[0]?.status).toBe('expired');
    // A new export can be asked for.
    const again = await customer.client.post('/api/v1/data-exports');
    expect(again.json().id).not.toBe(exportId);
  });

  it('refuses a download while the export is building', async () => {
    const customer = await createCustomer(app);
    const exportId = await requestExport(customer.client);
    const refused = await unlock(customer.client, exportId);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('data_export_not_ready');
    await runExportJob(app, 'data-export-build');
  });

  it('counts ready exports by their key, and a key rotation ends those of an older key', async () => {
    const customer = await createCustomer(app);
    const exportId = await readyExport(customer);
    const keyId = app.config.secretKeys.current.id;
    expect((await exportsBySecretKeyId(db)).get(keyId)).toBeGreaterThanOrEqual(1);

    const firstId = '00000000-0000-0000-0000-000000000000';
    const ended = await expireExportBatch(db, 'a-newer-key', firstId, 1_000);
    expect(ended.rotated).toBeGreaterThanOrEqual(1);
    expect(await exportsBySecretKeyId(db)).toEqual(new Map());
    const overview = await customer.client.get('/api/v1/data-exports');
    expect(overview.json().latest).toMatchObject({ id: exportId, status: 'expired' });
  });

  it('gives up after three failed tries, leaving no file, and a new export can be asked for', async () => {
    const customer = await createCustomer(app);
    await submitted(customer.client);
    // The identity document's file is lost: every try fails when it reads it.
    const { rows } = await db.query<{ storage_key: string }>(
      'SELECT storage_key FROM kyc_documents WHERE user_id = $1',
      [customer.user.id],
    );
    await rm(path.join(kycDocumentsDirectory(dataDir), rows[0]?.storage_key ?? ''));
    const filesBefore = await exportFiles();
    const exportId = await requestExport(customer.client);
    const minuteMs = 60 * 1000;
    for (let attempt = 1; attempt <= 4; attempt++) {
      await runExportJob(app, 'data-export-build', new Date(Date.now() + attempt * 2 * minuteMs));
    }
    const latest = (await customer.client.get('/api/v1/data-exports')).json().latest;
    expect(latest).toMatchObject({ id: exportId, status: 'failed' });
    expect(await exportFiles()).toEqual(filesBefore);
    const again = await customer.client.post('/api/v1/data-exports');
    expect(again.statusCode).toBe(202);
    expect(again.json().id).not.toBe(exportId);
  });
});
