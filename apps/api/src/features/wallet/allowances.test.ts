import type { MoneyOutAllowances } from '@coffer/contracts/limits';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildTestApp, useTestApp } from '../../../test/app.ts';
import { createCustomer } from '../../../test/customers.ts';
import { newIdempotencyKey, type TestClient } from '../../../test/http.ts';
import { bankDestination } from '../../../test/payouts.ts';
import { quickPay } from '../../../test/transfers.ts';
import type { Database } from '../../db/client.ts';

let db: Database;
let app: FastifyInstance;

useTestApp((opened) => {
  ({ app, db } = opened);
});

async function allowancesOf(client: TestClient): Promise<MoneyOutAllowances> {
  const answer = await client.get('/api/v1/wallet/allowances');
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json();
}

function kindOf(allowances: MoneyOutAllowances, kind: string) {
  return allowances.items.find((item) => item.kind === kind);
}

function payBill(client: TestClient, amount: string) {
  return client.post(
    '/api/v1/bill-payments',
    { category: 'electricity', billerReference: 'ACME-1', amount },
    { 'idempotency-key': newIdempotencyKey() },
  );
}

describe('remaining daily allowances', () => {
  it('gives a level-1 USD customer each kind in dollars, and what is left after paying', async () => {
    const sender = await createCustomer(app, { balance: '1000.00' });
    const recipient = await createCustomer(app);
    expect(await allowancesOf(sender.client)).toEqual({
      currency: 'USD',
      level: 1,
      stepUpThresholdMinor: '100000',
      items: [
        {
          kind: 'transfer',
          status: 'allowed',
          dailyLimitMinor: '50000',
          spentTodayMinor: '0',
          remainingMinor: '50000',
          minimumLevel: null,
        },
        {
          kind: 'bill_payment',
          status: 'allowed',
          dailyLimitMinor: '50000',
          spentTodayMinor: '0',
          remainingMinor: '50000',
          minimumLevel: null,
        },
        {
          kind: 'payout',
          status: 'level_too_low',
          dailyLimitMinor: null,
          spentTodayMinor: '0',
          remainingMinor: null,
          minimumLevel: 2,
        },
      ],
    });
    const sent = await quickPay(sender.client, {
      recipient: recipient.wallet.number,
      amount: '120.50',
    });
    expect(sent.statusCode).toBe(201);
    expect((await payBill(sender.client, '30.00')).statusCode).toBe(201);
    const after = await allowancesOf(sender.client);
    expect(kindOf(after, 'transfer')).toMatchObject({
      spentTodayMinor: '12050',
      remainingMinor: '37950',
    });
    expect(kindOf(after, 'bill_payment')).toMatchObject({ remainingMinor: '47000' });
    // The recipient's allowance is theirs: receiving spends none of it.
    expect(kindOf(await allowancesOf(recipient.client), 'transfer')?.remainingMinor).toBe('50000');
  });

  it('counts yen in whole yen: a level-1 JPY customer pays a ¥1,200 bill out of ¥75,000', async () => {
    const customer = await createCustomer(app, { country: 'JP', balance: '100000' });
    const paid = await payBill(customer.client, '1200');
    expect(paid.statusCode, paid.body).toBe(201);
    const allowances = await allowancesOf(customer.client);
    expect(allowances).toMatchObject({ currency: 'JPY', stepUpThresholdMinor: '150000' });
    expect(kindOf(allowances, 'bill_payment')).toMatchObject({
      dailyLimitMinor: '75000',
      remainingMinor: '73800',
    });
    const over = await payBill(customer.client, '73801');
    expect(over.json().error).toEqual({
      code: 'daily_limit_exceeded',
      message: 'This would go over your daily limit of ¥75,000. You can still send ¥73,800 today.',
    });
  });

  it('counts dinars in fils: a level-2 KWD customer may withdraw 1,500.000 a day', async () => {
    const customer = await createCustomer(app, { country: 'KW', balance: '2000.000', level: 2 });
    const allowances = await allowancesOf(customer.client);
    expect(allowances.currency).toBe('KWD');
    expect(kindOf(allowances, 'payout')).toMatchObject({
      status: 'allowed',
      dailyLimitMinor: '1500000',
      remainingMinor: '1500000',
    });
    expect(kindOf(allowances, 'transfer')?.dailyLimitMinor).toBe('1500000');
    const challenge = await customer.client.post('/api/v1/step-up/challenges', {
      purpose: 'payout',
      amount: '1500.001',
      destination: bankDestination,
    });
    expect(challenge.json().error.code).toBe('daily_limit_exceeded');
  });

  it('says when the wallet’s currency has no limits, and follows the operator’s table', async () => {
    const afghani = await createCustomer(app, { country: 'AF' });
    const closed = await allowancesOf(afghani.client);
    expect(closed.stepUpThresholdMinor).toBeNull();
    expect(closed.items.map((item) => item.status)).toEqual([
      'not_available',
      'not_available',
      'not_available',
    ]);

    const configured = await buildTestApp(db, {
      COFFER_LIMITS: JSON.stringify({
        JPY: { daily: { transfer: [null, '500000', '1000000'] }, stepUpThreshold: '200000' },
      }),
    });
    const yen = await createCustomer(configured, { country: 'JP' });
    const yenAllowances = await allowancesOf(yen.client);
    expect(yenAllowances.stepUpThresholdMinor).toBe('200000');
    expect(kindOf(yenAllowances, 'transfer')).toMatchObject({
      status: 'level_too_low',
      minimumLevel: 2,
    });
    expect(kindOf(yenAllowances, 'bill_payment')?.dailyLimitMinor).toBe('75000');
    await configured.close();
  });

  it('is the customer’s own: staff have no wallet and visitors are asked to sign in', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/v1/wallet/allowances' })).statusCode).toBe(
      401,
    );
  });
});
