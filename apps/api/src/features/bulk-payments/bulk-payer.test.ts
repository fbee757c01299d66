import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { bulkCsv, uploadBulkFile } from '../../../test/bulk-payments.ts';
import { createCustomer, type TestCustomer } from '../../../test/customers.ts';
import { lastStepUpCode } from '../../../test/payouts.ts';
import type { Database } from '../../db/client.ts';
import { payNextBatch } from './payer.ts';

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
  const confirmed = await payer.client.post(`/api/v1/bulk-payments/${id}/confirm`, {
    stepUpCode,
  });
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

describe('the bulk payer', () => {
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
