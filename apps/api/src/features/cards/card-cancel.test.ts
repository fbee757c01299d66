// A customer cancels their own card (issue #34 item 4: an active card keeps an account
// open): a request's fee comes back, an issued card declines every purchase from then on
// and is closed at the issuer; another customer's card is a 404.
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { authorizeOnCard, issuedCard, requestCard } from '../../../test/cards.ts';
import { createCustomer } from '../../../test/customers.ts';
import { staffClient } from '../../../test/http.ts';

let app: FastifyInstance;
useTestApp(
  (opened) => {
    ({ app } = opened);
  },
  { checksAfterEach: 'ledger' },
);

async function issuerStatusOf(cardId: string): Promise<string | null> {
  const found = await app.db.query<{ status: string }>(
    'SELECT status FROM sandbox_issuer_cards WHERE reference = $1',
    [cardId],
  );
  return found.rows[0]?.status ?? null;
}

describe('cancelling a card', () => {
  it('gives a request its fee back', async () => {
    const customer = await createCustomer(app, { balance: '150.00', level: 2 });
    const requested = await requestCard(customer);
    expect(requested.statusCode, requested.body).toBe(201);
    expect((await app.ledger.balance(customer.wallet.id)).availableMinor).toBe(5000n);
    const cancelled = await customer.client.post(`/api/v1/cards/${requested.json().id}/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().status).toBe('closed');
    expect((await app.ledger.balance(customer.wallet.id)).availableMinor).toBe(15000n);
    const again = await customer.client.post(`/api/v1/cards/${requested.json().id}/cancel`);
    expect(again.json().error.code).toBe('state_conflict');
  });

  it('closes an issued card: purchases are declined, the issuer closes it', async () => {
    const admin = (await staffClient(app, 'admin')).client;
    const customer = await createCustomer(app, { balance: '500.00', level: 2 });
    const { cardId, token } = await issuedCard(app, customer, admin);
    const stranger = await createCustomer(app);
    expect((await stranger.client.post(`/api/v1/cards/${cardId}/cancel`)).statusCode).toBe(404);

    const cancelled = await customer.client.post(`/api/v1/cards/${cardId}/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await issuerStatusOf(cardId)).toBe('closed');
    const purchase = await authorizeOnCard(app, token, 1000n);
    expect(purchase.json()).toMatchObject({ approved: false, declineReason: 'card_not_active' });
    const audited = await app.db.query(
      "SELECT 1 FROM audit_events WHERE subject_user_id = $1 AND action = 'card_cancelled'",
      [customer.user.id],
    );
    expect(audited.rows).toHaveLength(1);
  });
});
