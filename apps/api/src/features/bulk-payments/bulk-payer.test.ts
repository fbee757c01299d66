import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { bulkCsv, uploadBulkFile } from '../../../test/bulk-payments.ts';
import { createCustomer, type TestCustomer } from '../../../test/customers.ts';
import { newIdempotencyKey } from '../../../test/http.ts';
import { lastStepUpCode } from '../../../test/payouts.ts';
import type { Database } from '../../db/client.ts';
import { translateText } from '../../platform/i18n.ts';
import { lineNotCoveredMessage, payNextBatch } from './payer.ts';

let db: Database;
let app: FastifyInstance;

// The app's own payer is off: each test pays the batches itself, one at a time.
useTestApp(
  (opened) => {
    ({ app, db } = opened);
  },
  { checksAfterEach: 'money-out', env: { COFFER_BULK_PAYER: '0' } },
);

const payerDeps = () => ({ db, events: app.eventHub, config: app.config });

/** Uploads `lines` and confirms the file with its code; nothing is paid yet. */
async function confirmedFile(payer: TestCustomer, lines: string[]): Promise<string> {
  const uploaded = await uploadBulkFile(payer, bulkCsv(lines));
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  const { id } = uploaded.json();
  const started = await payer.client.post('/api/v1/step-up/challenges', {
    purpose: 'bulk_payment',
    bulkPaymentId: id,
  });
  expect(started.statusCode, started.body).toBe(200);
  const stepUpCode = await lastStepUpCode(app, payer.body.email);
  const confirmed = await payer.client.post(
    `/api/v1/bulk-payments/${id}/confirm`,
    { stepUpCode },
    { 'idempotency-key': newIdempotencyKey() },
  );
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  expect(confirmed.json().status).toBe('paying');
  return id;
}

async function payAll(): Promise<void> {
  while ((await payNextBatch(payerDeps(), { batchLines: 2 })) > 0) {}
}

async function linesOf(id: string) {
  const found = await db.query<{ line_number: number; status: string; refusal_reason: string }>(
    `SELECT line_number, status, refusal_reason FROM bulk_payment_lines
      WHERE bulk_payment_id = $1 ORDER BY line_number`,
    [id],
  );
  return found.rows;
}

async function balanceMinorOf(customer: TestCustomer): Promise<bigint> {
  return (await app.ledger.balance(customer.wallet.id)).balanceMinor;
}

/**
 * Runs `work` while a trigger counts the updates of each balance row (test-only: the
 * trigger is dropped again), and answers the count for each wallet given.
 */
async function balanceRowUpdatesDuring(
  work: () => Promise<unknown>,
  customers: TestCustomer[],
): Promise<number[]> {
  await db.query(`CREATE TABLE test_balance_updates (account_id uuid NOT NULL)`);
  await db.query(`CREATE FUNCTION test_count_balance_update() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN INSERT INTO test_balance_updates VALUES (NEW.account_id); RETURN NEW; END $$`);
  await db.query(`CREATE TRIGGER test_count_balance_update AFTER UPDATE ON account_balances
    FOR EACH ROW EXECUTE FUNCTION test_count_balance_update()`);
  try {
    await work();
    const counted = await db.query<{ account_id: string; updates: number }>(
      'SELECT account_id, count(*)::int AS updates FROM test_balance_updates GROUP BY account_id',
    );
    const byAccount = new Map(counted.rows.map((row) => [row.account_id, row.updates]));
    return customers.map((customer) => byAccount.get(customer.wallet.id) ?? 0);
  } finally {
    await db.query('DROP TRIGGER test_count_balance_update ON account_balances');
    await db.query('DROP FUNCTION test_count_balance_update()');
    await db.query('DROP TABLE test_balance_updates');
  }
}

describe('the bulk payer', () => {
  it('refuses an uncovered line with the reason the catalog has', async () => {
    const sql = readFileSync(
      path.join(import.meta.dirname, '../../db/functions/bulk_pay_lines.sql'),
      'utf8',
    );
    expect(sql).toContain(`'${lineNotCoveredMessage}'`);
  });

  it('marks the lines the balance no longer covers refused, pays the rest, and gives back their limit', async () => {
    const payer = await createCustomer(app, { balance: '30.00', level: 3 });
    const alice = await createCustomer(app);
    const id = await confirmedFile(payer, [
      `${alice.wallet.number},10.00,a`,
      `${alice.wallet.number},15.00,b`,
      `${alice.wallet.number},5.00,c`,
    ]);
    // Another payment after confirming leaves 22.00: after line 2, line 3 (15.00) no longer fits.
    const sent = await payer.client.post(
      '/api/v1/transfers',
      { recipient: alice.wallet.number, amount: '8.00' },
      { 'idempotency-key': `bulk-payer-${id}` },
    );
    expect(sent.statusCode, sent.body).toBe(201);
    await payAll();
    expect(await linesOf(id)).toEqual([
      { line_number: 2, status: 'paid', refusal_reason: null },
      {
        line_number: 3,
        status: 'refused',
        refusal_reason: 'Not enough money was left in your wallet for this line.',
      },
      { line_number: 4, status: 'paid', refusal_reason: null },
    ]);
    expect(await balanceMinorOf(payer)).toBe(700n);
    expect(await balanceMinorOf(alice)).toBe(2300n);
    // The result file gives the reason in the reader's language.
    const result = await payer.client.request(
      'GET',
      `/api/v1/bulk-payments/${id}/result`,
      undefined,
      { 'accept-language': 'de' },
    );
    const germanReason = translateText('de', lineNotCoveredMessage);
    expect(germanReason).not.toBe(lineNotCoveredMessage);
    expect(result.body).toContain(`,refused,${germanReason}\r\n`);
    const told = (await payer.client.get('/api/v1/notifications')).json().items[0];
    expect(told.text).toBe(
      'Your bulk payment file is done: 2 paid, 1 refused. The result is on the Bulk payments page.',
    );
    const read = await payer.client.get(`/api/v1/bulk-payments/${id}`);
    expect(read.json()).toMatchObject({
      status: 'done',
      paidCount: 2,
      refusedCount: 1,
      paidMinor: '1500',
      // 8.00 by Quick Pay and the 15.00 the file paid; its refused 15.00 was given back.
      spentTodayMinor: '2300',
    });
  });

  it('pays a 200-line batch until the money runs out and refuses the rest, each wallet posted once', async () => {
    const payer = await createCustomer(app, { balance: '200.00', level: 3 });
    const recipients = await Promise.all(Array.from({ length: 3 }, () => createCustomer(app)));
    // File lines 2 to 201 (line 1 is the header), 1.00 each, to three recipients in turn.
    const id = await confirmedFile(
      payer,
      Array.from(
        { length: 200 },
        (_, index) => `${recipients[index % 3]?.wallet.number},1.00,line ${index + 2}`,
      ),
    );
    // A Quick Pay after confirming leaves 135.00: file lines 2 to 136 fit, 137 onwards do not.
    const sent = await payer.client.post(
      '/api/v1/transfers',
      { recipient: recipients[0]?.wallet.number, amount: '65.00' },
      { 'idempotency-key': `bulk-run-out-${id}` },
    );
    expect(sent.statusCode, sent.body).toBe(201);
    // The whole batch changes each wallet's balance row once, not once a line.
    const updates = await balanceRowUpdatesDuring(async () => {
      expect(await payNextBatch(payerDeps(), { batchLines: 200 })).toBe(200);
    }, [payer, ...recipients]);
    expect(updates).toEqual([1, 1, 1, 1]);

    const lines = await linesOf(id);
    expect(lines.filter((line) => line.status === 'paid').map((line) => line.line_number)).toEqual(
      Array.from({ length: 135 }, (_, index) => index + 2),
    );
    const refused = lines.filter((line) => line.status === 'refused');
    expect(refused.map((line) => line.line_number)).toEqual(
      Array.from({ length: 65 }, (_, index) => index + 137),
    );
    expect(new Set(refused.map((line) => line.refusal_reason))).toEqual(
      new Set(['Not enough money was left in your wallet for this line.']),
    );
    expect(await balanceMinorOf(payer)).toBe(0n);
    // Each recipient got exactly its paid lines: 45 lines each, and the Quick Pay's 65.00.
    expect(await balanceMinorOf(recipients[0] as TestCustomer)).toBe(4500n + 6500n);
    expect(await balanceMinorOf(recipients[1] as TestCustomer)).toBe(4500n);
    expect(await balanceMinorOf(recipients[2] as TestCustomer)).toBe(4500n);
    const made = await db.query<{ entries: number; transfers: number }>(
      `SELECT count(DISTINCT e.id)::int AS entries, count(t.entry_id)::int AS transfers
         FROM journal_entries e LEFT JOIN transfers t ON t.entry_id = e.id
        WHERE e.idempotency_key LIKE $1`,
      [`bulk:${id}:%`],
    );
    expect(made.rows[0]).toEqual({ entries: 135, transfers: 135 });
    const read = await payer.client.get(`/api/v1/bulk-payments/${id}`);
    expect(read.json()).toMatchObject({ status: 'done', paidCount: 135, refusedCount: 65 });
  });

  it('marks a line whose entry was posted before paid, spending nothing and adding no transfer', async () => {
    const payer = await createCustomer(app, { balance: '3.00', level: 3 });
    const alice = await createCustomer(app);
    const id = await confirmedFile(payer, [
      `${alice.wallet.number},1.00,a`,
      `${alice.wallet.number},1.00,b`,
      `${alice.wallet.number},1.00,c`,
    ]);
    // Line 3's entry and transfer exist already, as if a batch had lost its line's update.
    const earlier = await app.ledger.post({
      kind: 'transfer',
      memo: 'b',
      idempotencyKey: `bulk:${id}:3`,
      lines: [
        { accountId: payer.wallet.id, amountMinor: -100n },
        { accountId: alice.wallet.id, amountMinor: 100n },
      ],
    });
    await db.query(
      `INSERT INTO transfers (entry_id, sender_user_id, recipient_user_id, amount_minor, currency, created_at)
       SELECT $1, $2, $3, 100, currency, now() FROM accounts WHERE id = $4`,
      [earlier.entryId, payer.user.id, alice.user.id, payer.wallet.id],
    );
    // Only 2.00 is left: without the replay's entry, line 4 would be refused.
    expect(await payNextBatch(payerDeps(), { batchLines: 200 })).toBe(3);
    const lines = await db.query<{ line_number: number; status: string; entry_id: string }>(
      'SELECT line_number, status, entry_id FROM bulk_payment_lines WHERE bulk_payment_id = $1 ORDER BY line_number',
      [id],
    );
    expect(lines.rows.map((line) => line.status)).toEqual(['paid', 'paid', 'paid']);
    expect(lines.rows[1]?.entry_id).toBe(earlier.entryId);
    expect(await balanceMinorOf(payer)).toBe(0n);
    expect(await balanceMinorOf(alice)).toBe(300n);
    const transfers = await db.query<{ entry_id: string }>(
      `SELECT t.entry_id FROM transfers t JOIN journal_entries e ON e.id = t.entry_id
        WHERE e.idempotency_key LIKE $1`,
      [`bulk:${id}:%`],
    );
    // Three transfers, one a line: none added for the line posted before.
    expect(transfers.rows).toHaveLength(3);
    expect(transfers.rows.filter((row) => row.entry_id === earlier.entryId)).toHaveLength(1);
  });

  it('writes the webhook events of each line as a single posting would', async () => {
    const payer = await createCustomer(app, { balance: '5.00', level: 3 });
    const alice = await createCustomer(app);
    const bob = await createCustomer(app);
    const id = await confirmedFile(payer, [
      `${alice.wallet.number},1.00,a`,
      `${bob.wallet.number},2.00,b`,
      `${alice.wallet.number},0.50,c`,
    ]);
    // An integrator's endpoint for transfers, as an admin registers it (its secret unused).
    const endpointId = '01900000-0000-7000-8000-0000000b0c01';
    await db.query(
      `INSERT INTO webhook_endpoints (id, url, event_types, secret_encrypted, created_by_user_id)
       VALUES ($1, 'https://hooks.example.test/coffer', ARRAY['money.transfer'], 'unused', $2)`,
      [endpointId, payer.user.id],
    );
    try {
      expect(await payNextBatch(payerDeps(), { batchLines: 200 })).toBe(3);
      const events = await db.query<{ account_id: string; amount: string; deliveries: number }>(
        `SELECT ev.account_id, ev.payload->'data'->>'amountMinor' AS amount,
                (SELECT count(*)::int FROM webhook_deliveries d
                  WHERE d.event_id = ev.id AND d.endpoint_id = $2) AS deliveries
           FROM webhook_events ev JOIN journal_entries e ON e.id = ev.entry_id
          WHERE e.idempotency_key LIKE $1 ORDER BY e.idempotency_key, ev.account_id`,
        [`bulk:${id}:%`, endpointId],
      );
      const byWallet = (accountId: string) =>
        events.rows.filter((row) => row.account_id === accountId).map((row) => row.amount);
      // One event a wallet an entry moves, each with its delivery to the endpoint.
      expect(events.rows).toHaveLength(6);
      expect(events.rows.every((row) => row.deliveries === 1)).toBe(true);
      expect(byWallet(payer.wallet.id).sort()).toEqual(['-100', '-200', '-50']);
      expect(byWallet(alice.wallet.id).sort()).toEqual(['100', '50']);
      expect(byWallet(bob.wallet.id)).toEqual(['200']);
    } finally {
      await db.query('DELETE FROM webhook_deliveries WHERE endpoint_id = $1', [endpointId]);
      await db.query('DELETE FROM webhook_endpoints WHERE id = $1', [endpointId]);
    }
  });

  it('refuses the lines of a sender frozen after confirming, with the reason', async () => {
    const payer = await createCustomer(app, { balance: '30.00' });
    const alice = await createCustomer(app);
    const id = await confirmedFile(payer, [`${alice.wallet.number},1.00,a`]);
    await db.query(
      "UPDATE users SET frozen_at = now(), frozen_reason = 'Checked by the test' WHERE id = $1",
      [payer.user.id],
    );
    await payAll();
    const [line] = await linesOf(id);
    expect(line?.status).toBe('refused');
    expect(line?.refusal_reason).toContain('Checked by the test');
    expect(await balanceMinorOf(payer)).toBe(3000n);
  });

  it('pays each line once after a payer died mid-batch', async () => {
    const payer = await createCustomer(app, { balance: '30.00', level: 3 });
    const alice = await createCustomer(app);
    const id = await confirmedFile(
      payer,
      Array.from({ length: 5 }, (_, index) => `${alice.wallet.number},1.00,line ${index}`),
    );
    const crash = new Error('the payer died');
    await expect(
      payNextBatch(payerDeps(), {
        batchLines: 4,
        // Dies with the batch's four postings made, before its commit.
        beforeCommit: () => {
          throw crash;
        },
      }),
    ).rejects.toBe(crash);
    expect((await linesOf(id)).every((line) => line.status === 'pending')).toBe(true);
    await payAll();
    expect((await linesOf(id)).map((line) => line.status)).toEqual(Array(5).fill('paid'));
    expect(await balanceMinorOf(payer)).toBe(2500n);
    expect(await balanceMinorOf(alice)).toBe(500n);
    const entries = await db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM journal_entries WHERE idempotency_key LIKE $1',
      [`bulk:${id}:%`],
    );
    expect(entries.rows[0]?.count).toBe(5);
  });
});
