// Two payers and a crash on one file: true concurrency needs PostgreSQL.
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { bulkCsv, uploadBulkFile } from '../../../test/bulk-payments.ts';
import { createCustomer, type TestCustomer } from '../../../test/customers.ts';
import { newIdempotencyKey } from '../../../test/http.ts';
import { lastStepUpCode } from '../../../test/payouts.ts';
import type { Database } from '../../db/client.ts';
import { payNextBatch } from './payer.ts';

let db: Database;
let app: FastifyInstance;

// The app's own payer is off: the test runs the payers, two at once.
useTestApp(
  (opened) => {
    ({ app, db } = opened);
  },
  { env: { COFFER_BULK_PAYER: '0' }, poolSize: 10, checksAfterEach: 'money-out' },
);

const payerDeps = () => ({ db, events: app.eventHub, config: app.config });

async function totalMinor(customers: TestCustomer[]): Promise<bigint> {
  let total = 0n;
  for (const customer of customers) {
    total += (await app.ledger.balance(customer.wallet.id)).balanceMinor;
  }
  return total;
}

/**
 * Pays batches until none is left; `crashAtLine` makes the first batch holding that line die
 * after its postings, before its commit.
 */
async function runPayer(options: { crashAtLine?: number } = {}): Promise<number> {
  let crashes = 0;
  for (;;) {
    try {
      const settled = await payNextBatch(payerDeps(), {
        batchLines: 25,
        beforeCommit: (lineNumbers) => {
          const isCrashing =
            options.crashAtLine !== undefined && lineNumbers.includes(options.crashAtLine);
          if (crashes === 0 && isCrashing) throw new Error('crash');
        },
      });
      if (settled === 0) return crashes;
    } catch (error) {
      if (!(error instanceof Error && error.message === 'crash')) throw error;
      crashes += 1;
    }
  }
}

describe('the bulk payer on PostgreSQL', () => {
  it('pays every line exactly once with two payers at once and one dying mid-batch', async () => {
    const sender = await createCustomer(app, { balance: '500.00', level: 3 });
    const recipients = await Promise.all(Array.from({ length: 6 }, () => createCustomer(app)));
    const everyone = [sender, ...recipients];
    const before = await totalMinor(everyone);
    const lines = Array.from({ length: 300 }, (_, index) => {
      const recipient = recipients[index % recipients.length];
      return `${recipient?.wallet.number},1.${String(index % 100).padStart(2, '0')},line ${index}`;
    });
    const uploaded = await uploadBulkFile(sender, bulkCsv(lines));
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const { id, totalMinor: fileTotal } = uploaded.json();
    await sender.client.post('/api/v1/step-up/challenges', {
      purpose: 'bulk_payment',
      bulkPaymentId: id,
    });
    const stepUpCode = await lastStepUpCode(app, sender.body.email);
    const confirmed = await sender.client.post(
      `/api/v1/bulk-payments/${id}/confirm`,
      { stepUpCode },
      { 'idempotency-key': newIdempotencyKey() },
    );
    expect(confirmed.statusCode, confirmed.body).toBe(200);

    // One payer dies once part-way through a batch (line 40 is in its second or third).
    const [crashes] = await Promise.all([runPayer({ crashAtLine: 40 }), runPayer()]);
    await runPayer();

    const statuses = await db.query<{ status: string; count: number }>(
      `SELECT status, count(*)::int AS count FROM bulk_payment_lines
        WHERE bulk_payment_id = $1 GROUP BY status`,
      [id],
    );
    expect(statuses.rows).toEqual([{ status: 'paid', count: 300 }]);
    const entries = await db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM journal_entries WHERE idempotency_key LIKE $1',
      [`bulk:${id}:%`],
    );
    expect(entries.rows[0]?.count).toBe(300);
    expect(await totalMinor(everyone)).toBe(before);
    expect((await app.ledger.balance(sender.wallet.id)).balanceMinor).toBe(
      50_000n - BigInt(fileTotal),
    );
    const read = await sender.client.get(`/api/v1/bulk-payments/${id}`);
    expect(read.json()).toMatchObject({ status: 'done', paidCount: 300, paidMinor: fileTotal });
    // Whether the crash came before the other payer took line 40 is up to the scheduler.
    expect(crashes).toBeLessThanOrEqual(1);
  });
});
