// Staff racing on one dispute, and a customer on one transaction, through the real routes:
// true concurrency needs PostgreSQL.
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/app.ts';
import { createCustomer } from '../../../test/customers.ts';
import { openTestDatabase } from '../../../test/database.ts';
import { newIdempotencyKey, staffClient } from '../../../test/http.ts';
import type { Database } from '../../db/client.ts';

let db: Database;
let app: FastifyInstance;

beforeAll(async () => {
  db = await openTestDatabase({ poolSize: 20 });
  app = await buildTestApp(db);
  await app.ready();
});
afterEach(async () => {
  await app.ledger.assertInvariants();
});
afterAll(async () => {
  await app.close();
  await db.close();
});

describe('disputes under concurrency', () => {
  it('resolves a dispute once, with one refund, however many staff press Resolve at once', async () => {
    const customer = await createCustomer(app);
    const admins = await Promise.all(Array.from({ length: 6 }, () => staffClient(app, 'admin')));
    const dispute = (
      await customer.client.post('/api/v1/disputes', {
        kind: 'general',
        amount: '30.00',
        recipientAccountNumber: '1234567890',
        problemType: 'other',
        description: 'Raced',
      })
    ).json();
    const answers = await Promise.all(
      admins.map((admin) =>
        admin.client.post(
          `/api/v1/admin/disputes/${dispute.id}/resolve`,
          { note: 'Refunded', refundAmount: '30.00' },
          { 'idempotency-key': newIdempotencyKey() },
        ),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409]);
    const refunds = await db.query<{ status: string; amount_minor: bigint }>(
      'SELECT status, amount_minor FROM money_requests WHERE user_id = $1 AND external_reference = $2',
      [customer.user.id, dispute.reference],
    );
    // An admin's refund under the approval threshold posts at once: exactly once.
    expect(refunds.rows).toEqual([{ status: 'posted', amount_minor: 3000n }]);
    const wallet = (await customer.client.get('/api/v1/wallet')).json();
    expect(wallet.availableMinor).toBe('3000');
  });

  it('gives every dispute filed at once its own reference', async () => {
    const customers = await Promise.all(Array.from({ length: 10 }, () => createCustomer(app)));
    const filed = await Promise.all(
      customers.map((customer) =>
        customer.client.post('/api/v1/disputes', {
          kind: 'general',
          amount: '1.00',
          recipientAccountNumber: '1234567890',
          problemType: 'other',
          description: 'At once',
        }),
      ),
    );
    expect(filed.map((answer) => answer.statusCode)).toEqual(filed.map(() => 201));
    const references = new Set(filed.map((answer) => answer.json().reference));
    expect(references.size).toBe(10);
  });

  it('files one dispute about a transaction however many are sent at once; the rest name it', async () => {
    const customer = await createCustomer(app, { balance: '20.00' });
    const [line] = (await customer.client.get('/api/v1/disputes/transactions')).json().items;
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        customer.client.post('/api/v1/disputes', {
          kind: 'deposit',
          entryId: line.id,
          amount: '20.00',
          problemType: 'wrong_amount',
          description: 'Pressed Submit many times',
        }),
      ),
    );
    const filed = answers.filter((answer) => answer.statusCode === 201);
    expect(filed).toHaveLength(1);
    const reference = filed[0]?.json().reference;
    for (const refused of answers.filter((answer) => answer.statusCode !== 201)) {
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.message).toContain(reference);
    }
    const rows = await db.query('SELECT id FROM disputes WHERE user_id = $1', [customer.user.id]);
    expect(rows.rows).toHaveLength(1);
  });
});
