// A card funded from a wallet the customer chooses when they ask for it (issue #33): its
// currency, its terms and every purchase are that wallet's; nobody else's wallet.
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { authorizeOnCard, cardToken, settle } from '../../../test/cards.ts';
import { addWallet, createCustomer } from '../../../test/customers.ts';
import { newIdempotencyKey, staffClient } from '../../../test/http.ts';
import type { AccountId } from '../../ledger/ledger.ts';

let app: FastifyInstance;
let admin: Awaited<ReturnType<typeof staffClient>>;

useTestApp(
  async (opened) => {
    ({ app } = opened);
    admin = await staffClient(app, 'admin');
  },
  { checksAfterEach: 'ledger' },
);

async function balanceOf(walletId: AccountId) {
  const { balanceMinor, heldMinor } = await app.ledger.balance(walletId);
  return { balanceMinor, heldMinor };
}

/** A US customer at level 2 with 1,000.00 USD and a JPY wallet holding 50,000 yen. */
async function dollarCustomerWithYen() {
  const customer = await createCustomer(app, { level: 2, balance: '1000.00' });
  const yen = await addWallet(app, customer, 'JPY', '50000');
  return { customer, yen };
}

describe('a card funded from a chosen wallet', () => {
  it("shows the chosen wallet's terms, and the card pays from that wallet only", async () => {
    const { customer, yen } = await dollarCustomerWithYen();
    const overview = await customer.client.get(`/api/v1/cards?walletId=${yen.id}`);
    expect(overview.statusCode, overview.body).toBe(200);
    // No card fee is configured for yen: the default schedule names USD alone.
    expect(overview.json().terms).toEqual({
      currency: 'JPY',
      creationFeeMinor: '0',
      weeklyLimitMinor: '2250000',
      availableMinor: '50000',
    });

    const requested = await customer.client.post(
      '/api/v1/cards',
      { confirmedFeeMinor: '0', walletId: yen.id },
      { 'idempotency-key': newIdempotencyKey() },
    );
    expect(requested.statusCode, requested.body).toBe(201);
    expect(requested.json()).toMatchObject({ currency: 'JPY' });
    const cardId: string = requested.json().id;
    const issued = await admin.client.post(`/api/v1/admin/cards/${cardId}/issue`, {});
    expect(issued.statusCode, issued.body).toBe(200);
    const token = await cardToken(app, cardId);

    const approved = await authorizeOnCard(app, token, 3000n, { currency: 'JPY' });
    expect(approved.json()).toMatchObject({ approved: true });
    expect(await balanceOf(yen.id)).toEqual({ balanceMinor: 50_000n, heldMinor: 3000n });
    expect(await balanceOf(customer.wallet.id)).toEqual({ balanceMinor: 100_000n, heldMinor: 0n });
    const settled = await settle(app, approved.json().id);
    expect(settled.json()).toMatchObject({ status: 'settled' });
    expect(await balanceOf(yen.id)).toEqual({ balanceMinor: 47_000n, heldMinor: 0n });

    // Dollars are the main wallet's, not this card's.
    const dollars = await authorizeOnCard(app, token, 100n, { currency: 'USD' });
    expect(dollars.json()).toMatchObject({ approved: false, declineReason: 'currency_mismatch' });
    // More than the yen wallet holds, though the dollar wallet could pay it.
    const tooMuch = await authorizeOnCard(app, token, 47_001n, { currency: 'JPY' });
    expect(tooMuch.json()).toMatchObject({ approved: false, declineReason: 'insufficient_funds' });
  });

  it("answers 404 for another customer's wallet and asks for nothing", async () => {
    const { customer } = await dollarCustomerWithYen();
    const { yen: othersYen } = await dollarCustomerWithYen();
    const overview = await customer.client.get(`/api/v1/cards?walletId=${othersYen.id}`);
    expect(overview.statusCode).toBe(404);
    const requested = await customer.client.post(
      '/api/v1/cards',
      { confirmedFeeMinor: '0', walletId: othersYen.id },
      { 'idempotency-key': newIdempotencyKey() },
    );
    expect(requested.statusCode).toBe(404);
    const cards = await app.db.query('SELECT 1 FROM cards WHERE user_id = $1', [customer.user.id]);
    expect(cards.rows).toHaveLength(0);
  });
});
