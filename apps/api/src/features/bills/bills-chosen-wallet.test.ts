// Paying a bill from a wallet the customer chooses (issue #33): in that wallet's currency,
// to that currency's bill clearing, under that currency's daily limit; nobody else's wallet.
import { toCurrencyCode } from '@coffer/contracts/currencies';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { addWallet, createCustomer } from '../../../test/customers.ts';
import { newIdempotencyKey, type TestClient } from '../../../test/http.ts';
import type { AccountId } from '../../ledger/ledger.ts';

let app: FastifyInstance;

useTestApp(
  (opened) => {
    ({ app } = opened);
  },
  { checksAfterEach: 'money-out' },
);

function payBill(client: TestClient, body: object) {
  return client.post('/api/v1/bill-payments', body, { 'idempotency-key': newIdempotencyKey() });
}

async function balanceMinor(walletId: AccountId): Promise<bigint> {
  return (await app.ledger.balance(walletId)).balanceMinor;
}

const rentInYen = { category: 'rent', billerReference: 'FLAT-7', amount: '60000' };

describe('paying a bill from a chosen wallet', () => {
  it("pays from the chosen wallet in its currency to that currency's bill clearing", async () => {
    const customer = await createCustomer(app, { country: 'DE', balance: '100.00', level: 2 });
    const yen = await addWallet(app, customer, 'JPY', '100000');
    const clearing = await app.ledger.systemAccount('bill_clearing', toCurrencyCode('JPY'));
    const clearingBefore = await balanceMinor(clearing);
    const paid = await payBill(customer.client, { ...rentInYen, walletId: yen.id });
    expect(paid.statusCode, paid.body).toBe(201);
    expect(paid.json()).toMatchObject({ amountMinor: '60000', currency: 'JPY' });
    expect(await balanceMinor(yen.id)).toBe(40_000n);
    expect(await balanceMinor(customer.wallet.id)).toBe(10_000n);
    expect(await balanceMinor(clearing)).toBe(clearingBefore + 60_000n);
  });

  it('reads the amount in the chosen currency and counts its own daily limit', async () => {
    // Level 1: 500.00 EUR and 75,000 JPY of bills a day.
    const customer = await createCustomer(app, { country: 'DE', balance: '100.00' });
    const yen = await addWallet(app, customer, 'JPY', '100000');
    const decimals = await payBill(customer.client, {
      ...rentInYen,
      amount: '10.50',
      walletId: yen.id,
    });
    expect(decimals.statusCode).toBe(400);
    expect((await payBill(customer.client, { ...rentInYen, walletId: yen.id })).statusCode).toBe(
      201,
    );
    const euros = await payBill(customer.client, { ...rentInYen, amount: '50.00' });
    expect(euros.statusCode, euros.body).toBe(201);
    const over = await payBill(customer.client, {
      ...rentInYen,
      amount: '15001',
      walletId: yen.id,
    });
    expect(over.json().error.code).toBe('daily_limit_exceeded');
    expect(await balanceMinor(yen.id)).toBe(40_000n);
  });

  it("answers 404 for another customer's wallet and moves nothing", async () => {
    const customer = await createCustomer(app, { country: 'DE', balance: '100.00', level: 2 });
    const other = await createCustomer(app, { country: 'DE', level: 2 });
    const othersYen = await addWallet(app, other, 'JPY', '100000');
    const paid = await payBill(customer.client, { ...rentInYen, walletId: othersYen.id });
    expect(paid.statusCode).toBe(404);
    expect(await balanceMinor(othersYen.id)).toBe(100_000n);
  });

  it('refuses more than the chosen wallet holds', async () => {
    const customer = await createCustomer(app, { country: 'DE', balance: '100.00', level: 2 });
    const yen = await addWallet(app, customer, 'JPY', '100');
    const paid = await payBill(customer.client, { ...rentInYen, walletId: yen.id });
    expect(paid.json().error.code).toBe('insufficient_funds');
    expect(await balanceMinor(yen.id)).toBe(100n);
  });
});
