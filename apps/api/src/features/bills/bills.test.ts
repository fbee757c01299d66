import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { createCustomer } from '../../../test/customers.ts';
import { usd } from '../../../test/factories.ts';
import { newIdempotencyKey, staffClient, type TestClient } from '../../../test/http.ts';
import type { Database } from '../../db/client.ts';
import type { AccountId } from '../../ledger/ledger.ts';

let db: Database;
let app: FastifyInstance;
let admin: Awaited<ReturnType<typeof staffClient>>;

useTestApp(
  async (opened) => {
    ({ app, db } = opened);
    admin = await staffClient(app, 'admin');
  },
  { checksAfterEach: 'money-out' },
);

function payBill(client: TestClient, body: object, key = newIdempotencyKey()) {
  return client.post('/api/v1/bill-payments', body, { 'idempotency-key': key });
}

const electricity = { category: 'electricity', billerReference: ' 12345 ', amount: '45.20' };

async function balanceMinor(walletId: AccountId): Promise<bigint> {
  return (await app.ledger.balance(walletId)).balanceMinor;
}

async function billPaymentCount(userId: string): Promise<number> {
  const found = await db.query<{ count: bigint }>(
    'SELECT count(*)::bigint AS count FROM bill_payments WHERE user_id = $1',
    [userId],
  );
  return Number(found.rows[0]?.count);
}

describe('paying a bill', () => {
  it('debits the wallet to bill clearing once per idempotency key', async () => {
    const { client, user, wallet } = await createCustomer(app, { balance: '100.00' });
    const billClearing = await app.ledger.systemAccount('bill_clearing', usd);
    const clearingBefore = await balanceMinor(billClearing);
    const key = newIdempotencyKey();

    const paid = await payBill(client, electricity, key);
    expect(paid.statusCode).toBe(201);
    expect(paid.json()).toMatchObject({
      category: 'electricity',
      billerReference: '12345',
      amountMinor: '4520',
      currency: 'USD',
      status: 'completed',
    });
    const again = await payBill(client, electricity, key);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(paid.json());

    expect(await balanceMinor(wallet.id)).toBe(5480n);
    expect((await balanceMinor(billClearing)) - clearingBefore).toBe(4520n);
    expect(await billPaymentCount(user.id)).toBe(1);
    const [line] = (await app.ledger.history(wallet.id, { limit: 1 })).items;
    expect(line).toMatchObject({
      kind: 'bill_payment',
      memo: 'Electricity bill (ref. 12345)',
      amountMinor: -4520n,
    });
  });

  it('answers 422 when a key is reused for a different bill, and moves nothing', async () => {
    const { client, wallet } = await createCustomer(app, { balance: '100.00' });
    const key = newIdempotencyKey();
    expect((await payBill(client, electricity, key)).statusCode).toBe(201);
    const reused = await payBill(client, { ...electricity, amount: '45.21' }, key);
    expect(reused.statusCode).toBe(422);
    expect(reused.json().error.code).toBe('idempotency_key_reused');
    expect(await balanceMinor(wallet.id)).toBe(5480n);
  });

  it('needs an Idempotency-Key', async () => {
    const { client, wallet } = await createCustomer(app, { balance: '100.00' });
    const response = await client.post('/api/v1/bill-payments', electricity);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('idempotency_key_required');
    expect(await balanceMinor(wallet.id)).toBe(10000n);
  });

  it('holds level 1 to 500.00 of bills a day', async () => {
    const { client, user, wallet } = await createCustomer(app, { balance: '1000.00' });
    const rent = { category: 'rent', billerReference: 'FLAT-4B' };
    expect((await payBill(client, { ...rent, amount: '300.00' })).statusCode).toBe(201);
    const over = await payBill(client, { ...rent, amount: '200.01' });
    expect(over.statusCode).toBe(409);
    expect(over.json().error).toEqual({
      code: 'daily_limit_exceeded',
      message: 'This would go over your daily limit of $500.00. You can still send $200.00 today.',
    });
    expect((await payBill(client, { ...rent, amount: '200.00' })).statusCode).toBe(201);
    expect(await balanceMinor(wallet.id)).toBe(50000n);
    expect(await billPaymentCount(user.id)).toBe(2);
  });

  it('lets only one of two bills that together pass the daily limit through at once', async () => {
    const { client, user, wallet } = await createCustomer(app, { balance: '1000.00' });
    const bill = { category: 'internet', billerReference: 'NET-9', amount: '300.00' };
    const answers = await Promise.all([payBill(client, bill), payBill(client, bill)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    expect(await balanceMinor(wallet.id)).toBe(70000n);
    expect(await billPaymentCount(user.id)).toBe(1);
  });

  it('refuses a frozen account with the reason staff gave', async () => {
    const { client, user, wallet } = await createCustomer(app, { balance: '100.00' });
    const frozen = await admin.client.post(`/api/v1/admin/users/${user.id}/freeze`, {
      reason: 'Card reported stolen',
    });
    expect(frozen.statusCode).toBe(200);
    const refused = await payBill(client, electricity);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toEqual({
      code: 'account_frozen',
      message:
        'Transactions are disabled on your account: Card reported stolen. Contact support to have them re-enabled.',
    });
    expect(await balanceMinor(wallet.id)).toBe(10000n);
    expect(await billPaymentCount(user.id)).toBe(0);
  });

  it('refuses an unverified email address', async () => {
    const { client, wallet } = await createCustomer(app, {
      balance: '100.00',
      isEmailVerified: false,
    });
    const refused = await payBill(client, electricity);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('email_not_verified');
    expect(await balanceMinor(wallet.id)).toBe(10000n);
  });

  it('refuses more than the available balance, and tells a retry the same', async () => {
    const { client, user, wallet } = await createCustomer(app, { balance: '10.00' });
    const key = newIdempotencyKey();
    const body = { category: 'water', billerReference: 'W-77', amount: '10.01' };
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const refused = await payBill(client, body, key);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error).toEqual({
        code: 'insufficient_funds',
        message: 'Insufficient balance for withdrawal',
      });
    }
    expect(await balanceMinor(wallet.id)).toBe(1000n);
    expect(await billPaymentCount(user.id)).toBe(0);
    expect((await payBill(client, { ...body, amount: '10.00' })).statusCode).toBe(201);
    expect(await balanceMinor(wallet.id)).toBe(0n);
  });

  it.each([
    [
      { billerReference: '12345', amount: '5.00' },
      'category',
      'Please select a bill and enter amount',
    ],
    [
      { category: 'gas', billerReference: '12345', amount: '5.00' },
      'category',
      'Please select a bill and enter amount',
    ],
    [
      { category: 'phone', billerReference: '12345' },
      'amount',
      'Please select a bill and enter amount',
    ],
    [
      { category: 'phone', billerReference: '12345', amount: ' ' },
      'amount',
      'Please select a bill and enter amount',
    ],
    [{ category: 'phone', billerReference: '12345', amount: '0' }, 'amount', 'Invalid amount'],
    [{ category: 'phone', billerReference: '12345', amount: '-5' }, 'amount', 'Invalid amount'],
    [{ category: 'phone', billerReference: '12345', amount: '1.234' }, 'amount', 'Invalid amount'],
    [
      { category: 'phone', amount: '5.00' },
      'billerReference',
      'Enter the customer number from your bill',
    ],
    [
      { category: 'phone', billerReference: '  ', amount: '5.00' },
      'billerReference',
      'Enter the customer number from your bill',
    ],
    [
      { category: 'phone', billerReference: '12 345', amount: '5.00' },
      'billerReference',
      'Use only letters, digits and dashes',
    ],
    [
      { category: 'phone', billerReference: '=1+2', amount: '5.00' },
      'billerReference',
      'Use only letters, digits and dashes',
    ],
    [
      { category: 'phone', billerReference: 'A'.repeat(41), amount: '5.00' },
      'billerReference',
      'Use at most 40 characters',
    ],
  ])('explains what is wrong with %o', async (body, field, message) => {
    const { client, user, wallet } = await createCustomer(app, { balance: '100.00' });
    const refused = await payBill(client, body);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatchObject({ code: 'validation_failed', message });
    expect(refused.json().error.fields[field]).toBe(message);
    expect(await balanceMinor(wallet.id)).toBe(10000n);
    expect(await billPaymentCount(user.id)).toBe(0);
  });
});

describe('bill payment history', () => {
  it('lists only the customer’s own payments, newest first, a page at a time', async () => {
    const { client } = await createCustomer(app, { balance: '100.00' });
    const other = await createCustomer(app, { balance: '100.00' });
    for (const category of ['electricity', 'water', 'internet']) {
      expect(
        (await payBill(client, { category, billerReference: 'REF-1', amount: '1.00' })).statusCode,
      ).toBe(201);
    }
    expect((await payBill(other.client, electricity)).statusCode).toBe(201);

    const first = (await client.get('/api/v1/bill-payments?limit=2')).json();
    expect(first.items.map((item: { category: string }) => item.category)).toEqual([
      'internet',
      'water',
    ]);
    expect(first.items[0]).toMatchObject({
      billerReference: 'REF-1',
      amountMinor: '100',
      currency: 'USD',
      status: 'completed',
      createdAt: expect.any(String),
    });
    const second = (
      await client.get(`/api/v1/bill-payments?limit=2&cursor=${first.nextCursor}`)
    ).json();
    expect(second.items.map((item: { category: string }) => item.category)).toEqual([
      'electricity',
    ]);
    expect(second.nextCursor).toBeNull();

    const othersList = (await other.client.get('/api/v1/bill-payments')).json();
    expect(othersList.items).toHaveLength(1);
    expect(othersList.items[0].billerReference).toBe('12345');
  });

  it('is for customers only', async () => {
    const staffList = await admin.client.get('/api/v1/bill-payments');
    expect(staffList.statusCode).toBe(403);
    const staffPay = await payBill(admin.client, electricity);
    expect(staffPay.statusCode).toBe(403);
  });
});
