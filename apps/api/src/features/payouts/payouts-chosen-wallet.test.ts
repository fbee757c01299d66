// Withdrawing from a wallet the customer chooses (issue #33): the hold, the fee, the limit
// and the step-up code are that wallet's currency's; nobody else's wallet.
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { addWallet, createCustomer, type TestCustomer } from '../../../test/customers.ts';
import { staffClient } from '../../../test/http.ts';
import { bankDestination, lastStepUpCode, requestPayout } from '../../../test/payouts.ts';
import type { AccountId } from '../../ledger/ledger.ts';

let app: FastifyInstance;
let admin: Awaited<ReturnType<typeof staffClient>>;

useTestApp(
  async (opened) => {
    ({ app } = opened);
    admin = await staffClient(app, 'admin');
  },
  { checksAfterEach: 'money-out' },
);

async function balanceOf(walletId: AccountId) {
  const { balanceMinor, heldMinor } = await app.ledger.balance(walletId);
  return { balanceMinor, heldMinor };
}

/** The code a payout challenge emailed for this amount, wallet and the bank destination. */
async function codeFor(customer: TestCustomer, amount: string, walletId?: string) {
  const challenge = await customer.client.post('/api/v1/step-up/challenges', {
    purpose: 'payout',
    amount,
    destination: bankDestination,
    ...(walletId ? { walletId } : {}),
  });
  expect(challenge.statusCode, challenge.body).toBe(200);
  return lastStepUpCode(app, customer.body.email);
}

async function euroCustomerWithYen() {
  const customer = await createCustomer(app, { country: 'DE', balance: '100.00', level: 2 });
  const yen = await addWallet(app, customer, 'JPY', '50000');
  return { customer, yen };
}

describe('withdrawing from a chosen wallet', () => {
  it('holds the amount on the chosen wallet in its currency; a rejection gives it back', async () => {
    const { customer, yen } = await euroCustomerWithYen();
    const terms = await customer.client.get(`/api/v1/payouts/terms?walletId=${yen.id}`);
    expect(terms.json()).toMatchObject({ currency: 'JPY', availableMinor: '50000' });

    const stepUpCode = await codeFor(customer, '20000', yen.id);
    const requested = await requestPayout(customer.client, {
      ...bankDestination,
      amount: '20000',
      walletId: yen.id,
      stepUpCode,
    });
    expect(requested.statusCode, requested.body).toBe(201);
    expect(requested.json()).toMatchObject({ amountMinor: '20000', currency: 'JPY' });
    // The wallet is where the money leaves from, not part of where it goes.
    const stored = await app.db.query<{ destination: Record<string, unknown> }>(
      'SELECT destination FROM payouts WHERE id = $1',
      [requested.json().id],
    );
    expect(stored.rows[0]?.destination).toMatchObject({ method: 'bank' });
    expect(stored.rows[0]?.destination).not.toHaveProperty('walletId');
    expect(await balanceOf(yen.id)).toEqual({ balanceMinor: 50_000n, heldMinor: 20_000n });
    expect(await balanceOf(customer.wallet.id)).toEqual({ balanceMinor: 10_000n, heldMinor: 0n });
    const allowances = await customer.client.get(`/api/v1/wallet/allowances?walletId=${yen.id}`);
    expect(
      allowances.json().items.find((item: { kind: string }) => item.kind === 'payout'),
    ).toMatchObject({ spentTodayMinor: '20000' });

    const rejected = await admin.client.post(
      `/api/v1/admin/payouts/${requested.json().id}/reject`,
      { reason: 'The account holder name does not match yours' },
    );
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(await balanceOf(yen.id)).toEqual({ balanceMinor: 50_000n, heldMinor: 0n });
  });

  it('debits the chosen wallet when staff send it', async () => {
    const { customer, yen } = await euroCustomerWithYen();
    const stepUpCode = await codeFor(customer, '30000', yen.id);
    const requested = await requestPayout(customer.client, {
      ...bankDestination,
      amount: '30000',
      walletId: yen.id,
      stepUpCode,
    });
    expect(requested.statusCode, requested.body).toBe(201);
    const sent = await admin.client.post(`/api/v1/admin/payouts/${requested.json().id}/send`, {
      externalReference: 'WIRE-JPY-1',
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(await balanceOf(yen.id)).toEqual({ balanceMinor: 20_000n, heldMinor: 0n });
    expect(await balanceOf(customer.wallet.id)).toEqual({ balanceMinor: 10_000n, heldMinor: 0n });
  });

  it('does not take a code sent for the main wallet for the same amount in another currency', async () => {
    const { customer, yen } = await euroCustomerWithYen();
    const euroCode = await codeFor(customer, '50');
    const requested = await requestPayout(customer.client, {
      ...bankDestination,
      amount: '50',
      walletId: yen.id,
      stepUpCode: euroCode,
    });
    expect(requested.statusCode).not.toBe(201);
    expect(await balanceOf(yen.id)).toEqual({ balanceMinor: 50_000n, heldMinor: 0n });
  });

  it("answers 404 for another customer's wallet", async () => {
    const { customer } = await euroCustomerWithYen();
    const { yen: othersYen } = await euroCustomerWithYen();
    const terms = await customer.client.get(`/api/v1/payouts/terms?walletId=${othersYen.id}`);
    expect(terms.statusCode).toBe(404);
    const challenge = await customer.client.post('/api/v1/step-up/challenges', {
      purpose: 'payout',
      amount: '100',
      destination: bankDestination,
      walletId: othersYen.id,
    });
    expect(challenge.statusCode).toBe(404);
    expect(await balanceOf(othersYen.id)).toEqual({ balanceMinor: 50_000n, heldMinor: 0n });
  });
});
