import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import {
  authorizeOnCard,
  cardToken,
  issuedCard,
  requestCard,
  settle,
  signedIssuingCall,
} from '../../../test/cards.ts';
import { createCustomer, type TestCustomer } from '../../../test/customers.ts';
import { newIdempotencyKey, staffClient } from '../../../test/http.ts';
import { newId } from '../../platform/ids.ts';
import { passesLuhn, sandboxBin } from './issuer.ts';

let app: FastifyInstance;
let admin: Awaited<ReturnType<typeof staffClient>>;
let support: Awaited<ReturnType<typeof staffClient>>;

useTestApp(
  async (opened) => {
    ({ app } = opened);
    admin = await staffClient(app, 'admin');
    support = await staffClient(app, 'support');
  },
  // Sandbox mode: the simulated purchase exists only there.
  { env: { COFFER_SANDBOX: '1' }, checksAfterEach: 'ledger' },
);

/** USD: the default fee 100.00 and weekly limit 15,000.00 (PRODUCT.md section 5). */
const feeMinor = 10_000n;
const weeklyLimitMinor = 1_500_000n;

async function wallet(customer: TestCustomer) {
  return app.ledger.balance(customer.wallet.id);
}

/** Everything a refused or replayed call must leave as it was. */
async function footprint(customer: TestCustomer) {
  const found = await app.db.query<{ cards: number; holds: number; authorizations: number }>(
    `SELECT (SELECT count(*)::int FROM cards WHERE user_id = $1) AS cards,
            (SELECT count(*)::int FROM holds WHERE account_id = $2) AS holds,
            (SELECT count(*)::int FROM card_authorizations WHERE user_id = $1) AS authorizations`,
    [customer.user.id, customer.wallet.id],
  );
  const counts = found.rows[0];
  if (!counts) throw new Error('counts come back');
  return { ...counts, ...(await wallet(customer)) };
}

async function level2(balance = '1000.00') {
  return createCustomer(app, { level: 2, balance });
}

describe('requesting a card', () => {
  it('shows the terms from the fee schedule and the weekly limit before anything exists', async () => {
    const customer = await level2();
    const overview = await customer.client.get('/api/v1/cards');
    expect(overview.statusCode).toBe(200);
    expect(overview.json()).toMatchObject({
      terms: {
        currency: 'USD',
        creationFeeMinor: feeMinor.toString(),
        weeklyLimitMinor: weeklyLimitMinor.toString(),
        availableMinor: '100000',
      },
      card: null,
      spending: null,
    });
  });

  it('holds the fee at request, and refuses a second request while one is open', async () => {
    const customer = await level2();
    const requested = await requestCard(customer);
    expect(requested.statusCode).toBe(201);
    expect(requested.json()).toMatchObject({ status: 'requested', lastFour: null });
    expect(await wallet(customer)).toMatchObject({ balanceMinor: 100_000n, heldMinor: feeMinor });
    const before = await footprint(customer);
    const second = await requestCard(customer);
    expect(second.statusCode).toBe(409);
    expect(second.json().error.code).toBe('card_already_open');
    expect(await footprint(customer)).toEqual(before);
  });

  it('answers a retry with the same key with the first request, holding the fee once', async () => {
    const customer = await level2();
    const key = newIdempotencyKey();
    const first = await requestCard(customer, feeMinor.toString(), key);
    const retry = await requestCard(customer, feeMinor.toString(), key);
    expect(retry.statusCode).toBe(201);
    expect(retry.json().id).toBe(first.json().id);
    expect((await footprint(customer)).holds).toBe(1);
  });

  it('refuses level 1 with the level message, writing nothing', async () => {
    const customer = await createCustomer(app, { balance: '1000.00' });
    expect((await customer.client.get('/api/v1/cards')).json().level).toBe(1);
    const before = await footprint(customer);
    const refused = await requestCard(customer);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe(
      'Your account level is too low for this transaction. Please upgrade to level 2.',
    );
    expect(await footprint(customer)).toEqual(before);
  });

  it('refuses a frozen account with the staff’s reason, writing nothing', async () => {
    const customer = await createCustomer(app, { level: 2, balance: '1000.00', isFrozen: true });
    const before = await footprint(customer);
    const refused = await requestCard(customer);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toContain('Frozen by the test');
    expect(await footprint(customer)).toEqual(before);
  });

  it('refuses when the fee is not the one the customer confirmed, or is not covered', async () => {
    const customer = await level2('50.00');
    const before = await footprint(customer);
    const wrongFee = await requestCard(customer, '0');
    expect(wrongFee.statusCode).toBe(409);
    expect(wrongFee.json().error.code).toBe('card_fee_changed');
    const short = await requestCard(customer);
    expect(short.statusCode).toBe(409);
    expect(short.json().error.message).toBe(
      'Your available balance does not cover the card fee of $100.00.',
    );
    expect(await footprint(customer)).toEqual(before);
  });
});

describe('staff decisions', () => {
  it('issue: the fee hold is captured into fees, and the card shows last four and expiry only', async () => {
    const customer = await level2();
    const { cardId, token } = await issuedCard(app, customer, admin.client);
    expect(await wallet(customer)).toMatchObject({ balanceMinor: 90_000n, heldMinor: 0n });
    const transactions = await customer.client.get('/api/v1/wallet/transactions');
    expect(transactions.json().items[0]).toMatchObject({ kind: 'fee', amountMinor: '-10000' });
    const overview = (await customer.client.get('/api/v1/cards')).json();
    expect(overview.card).toMatchObject({ id: cardId, status: 'issued' });
    expect(overview.card.lastFour).toMatch(/^\d{4}$/);
    expect(overview.card.expiry).toMatch(/^\d{2}\/\d{2}$/);
    expect(overview.spending).toMatchObject({ spentThisWeekMinor: '0' });
    // The full number lives only in the sandbox issuer's table, Luhn-valid, in the test range.
    const issuer = await app.db.query<{ number: string }>(
      'SELECT number FROM sandbox_issuer_cards WHERE token = $1',
      [token],
    );
    const number = issuer.rows[0]?.number ?? '';
    expect(number.startsWith(sandboxBin)).toBe(true);
    expect(passesLuhn(number)).toBe(true);
    expect(number.slice(-4)).toBe(overview.card.lastFour);
    const columns = await app.db.query<{ column_name: string }>(
      "SELECT column_name FROM information_schema.columns WHERE table_name = 'cards'",
    );
    expect(columns.rows.map((row) => row.column_name)).not.toContain('number');
    const fees = await app.db.query<{ kind: string; memo: string }>(
      'SELECT e.kind, e.memo FROM journal_entries e JOIN cards c ON c.fee_entry_id = e.id WHERE c.id = $1',
      [cardId],
    );
    expect(fees.rows[0]).toMatchObject({ kind: 'fee' });
  });

  it('decline: the fee hold is released and the customer sees the reason', async () => {
    const customer = await level2();
    const cardId = (await requestCard(customer)).json().id;
    expect((await admin.client.get('/api/v1/admin/queues/cards')).json().items).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: cardId })]),
    );
    const declined = await admin.client.post(`/api/v1/admin/cards/${cardId}/decline`, {
      reason: 'Could not confirm the address',
    });
    expect(declined.statusCode).toBe(200);
    expect(await wallet(customer)).toMatchObject({ balanceMinor: 100_000n, heldMinor: 0n });
    const card = (await customer.client.get('/api/v1/cards')).json().card;
    expect(card).toMatchObject({ status: 'declined', reason: 'Could not confirm the address' });
    const again = await admin.client.post(`/api/v1/admin/cards/${cardId}/issue`, {});
    expect(again.statusCode).toBe(409);
    // A declined card has no number at the issuer: any authorization for it is unknown.
    const before = await footprint(customer);
    const authorization = await authorizeOnCard(app, `sandbox_card_${newId()}`, 100n);
    expect(authorization.json()).toMatchObject({ approved: false, declineReason: 'unknown_card' });
    expect(await footprint(customer)).toEqual(before);
    // A new request is allowed once the last one was declined.
    expect((await requestCard(customer)).statusCode).toBe(201);
  });

  it('support may not issue or decline; support may freeze with a reason, audited and told', async () => {
    const customer = await level2();
    const cardId = (await requestCard(customer)).json().id;
    expect((await support.client.post(`/api/v1/admin/cards/${cardId}/issue`, {})).statusCode).toBe(
      403,
    );
    await admin.client.post(`/api/v1/admin/cards/${cardId}/issue`, {});
    const noReason = await support.client.post(`/api/v1/admin/cards/${cardId}/freeze`, {});
    expect(noReason.statusCode).toBe(400);
    const frozen = await support.client.post(`/api/v1/admin/cards/${cardId}/freeze`, {
      reason: 'Reported lost by phone',
    });
    expect(frozen.json()).toMatchObject({ status: 'frozen', reason: 'Reported lost by phone' });
    const audit = await app.db.query<{ action: string; reason: string }>(
      "SELECT action, reason FROM audit_events WHERE subject_user_id = $1 AND action LIKE 'card_%' ORDER BY created_at",
      [customer.user.id],
    );
    expect(audit.rows.map((row) => row.action)).toEqual(['card_issued', 'card_frozen']);
    const bell = (await customer.client.get('/api/v1/notifications')).json().items;
    expect(bell[0].text).toContain('Reported lost by phone');
    const unfrozen = await support.client.post(`/api/v1/admin/cards/${cardId}/unfreeze`, {
      reason: 'Found again',
    });
    expect(unfrozen.json().status).toBe('issued');
  });

  it('keeps a staff freeze until staff lift it: the customer cannot unfreeze it', async () => {
    const customer = await level2();
    const { cardId, token } = await issuedCard(app, customer, admin.client);
    await support.client.post(`/api/v1/admin/cards/${cardId}/freeze`, {
      reason: 'Suspected fraud',
    });
    const byCustomer = await customer.client.post(`/api/v1/cards/${cardId}/unfreeze`);
    expect(byCustomer.statusCode).toBe(409);
    expect(byCustomer.json().error.message).toContain('Suspected fraud');
    expect((await authorizeOnCard(app, token, 100n)).json().declineReason).toBe('card_frozen');
    const bySupport = await support.client.post(`/api/v1/admin/cards/${cardId}/unfreeze`, {
      reason: 'Customer verified',
    });
    expect(bySupport.json().status).toBe('issued');
    // Once staff lifted it, the customer's own freeze and unfreeze work as before.
    await customer.client.post(`/api/v1/cards/${cardId}/freeze`);
    expect((await customer.client.post(`/api/v1/cards/${cardId}/unfreeze`)).statusCode).toBe(200);
  });

  it('lets staff put their freeze on a card the customer froze, which the customer then cannot lift', async () => {
    const customer = await level2();
    const { cardId } = await issuedCard(app, customer, admin.client);
    await customer.client.post(`/api/v1/cards/${cardId}/freeze`);
    const bySupport = await support.client.post(`/api/v1/admin/cards/${cardId}/freeze`, {
      reason: 'Suspected fraud',
    });
    expect(bySupport.statusCode).toBe(200);
    expect(bySupport.json()).toMatchObject({ status: 'frozen', reason: 'Suspected fraud' });
    expect((await customer.client.post(`/api/v1/cards/${cardId}/unfreeze`)).statusCode).toBe(409);
    // A staff freeze is not put on twice.
    const again = await support.client.post(`/api/v1/admin/cards/${cardId}/freeze`, {
      reason: 'Still suspected',
    });
    expect(again.statusCode).toBe(409);
  });

  it('counts requested cards in the staff home’s queue counts', async () => {
    const before = (await support.client.get('/api/v1/admin/queues')).json().items;
    const countOf = (items: { queue: string; openCount: number }[]) =>
      items.find((item) => item.queue === 'cards')?.openCount;
    const customer = await level2();
    await requestCard(customer);
    const after = (await support.client.get('/api/v1/admin/queues')).json().items;
    expect(countOf(after)).toBe((countOf(before) ?? 0) + 1);
  });
});

describe('authorizations and settlements', () => {
  async function cardholder(balance = '1000.00') {
    const customer = await level2(balance);
    return { customer, ...(await issuedCard(app, customer, admin.client)) };
  }

  it('approves into a hold, answers a replay the same with one hold, and settles as a card purchase', async () => {
    const { customer, cardId, token } = await cardholder();
    const id = `auth_${newId()}`;
    const first = await authorizeOnCard(app, token, 2_500n, { id, merchant: 'Blue Bottle Coffee' });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ id, approved: true, declineReason: null });
    const replay = await authorizeOnCard(app, token, 2_500n, {
      id,
      merchant: 'Blue Bottle Coffee',
    });
    expect(replay.json()).toEqual(first.json());
    expect(await wallet(customer)).toMatchObject({ balanceMinor: 90_000n, heldMinor: 2_500n });
    const activity = (await customer.client.get(`/api/v1/cards/${cardId}/authorizations`)).json();
    expect(activity.items).toHaveLength(1);
    expect(activity.items[0]).toMatchObject({ status: 'approved', merchant: 'Blue Bottle Coffee' });

    const settlementId = `settle_${newId()}`;
    const settled = await settle(app, id, 'capture', settlementId);
    expect(settled.json()).toMatchObject({ status: 'settled' });
    expect((await settle(app, id, 'capture', settlementId)).json()).toEqual(settled.json());
    expect(await wallet(customer)).toMatchObject({ balanceMinor: 87_500n, heldMinor: 0n });
    const transactions = (await customer.client.get('/api/v1/wallet/transactions')).json().items;
    expect(transactions[0]).toMatchObject({ kind: 'card_purchase', amountMinor: '-2500' });
    expect(JSON.stringify(transactions[0])).toContain('Blue Bottle Coffee');
    const month = new Date().toISOString().slice(0, 7);
    const csv = await customer.client.get(`/api/v1/statements?month=${month}&format=csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('Blue Bottle Coffee');

    const before = await footprint(customer);
    const twice = await settle(app, id, 'capture');
    expect(twice.statusCode).toBe(409);
    const reversalAfterCapture = await settle(app, id, 'reversal');
    expect(reversalAfterCapture.statusCode).toBe(409);
    const unknown = await settle(app, `auth_${newId()}`, 'capture');
    expect(unknown.statusCode).toBe(404);
    expect(await footprint(customer)).toEqual(before);
    // A settlement id already used for another authorization is refused, not replayed.
    const otherId = `auth_${newId()}`;
    await authorizeOnCard(app, token, 100n, { id: otherId });
    const before2 = await footprint(customer);
    expect((await settle(app, otherId, 'capture', settlementId)).statusCode).toBe(409);
    expect(await footprint(customer)).toEqual(before2);
  });

  it('refuses a known processor id sent with another amount, currency, merchant or card, and still replays the same body', async () => {
    const { customer, token } = await cardholder();
    const other = await cardholder();
    const id = `auth_${newId()}`;
    const body = { id, merchant: 'Blue Bottle Coffee' };
    const first = await authorizeOnCard(app, token, 2_500n, body);
    expect(first.json()).toEqual({ id, approved: true, declineReason: null });
    const before = await footprint(customer);
    const otherBefore = await footprint(other.customer);
    for (const [what, send] of [
      ['amount', () => authorizeOnCard(app, token, 9_999n, body)],
      ['currency', () => authorizeOnCard(app, token, 2_500n, { ...body, currency: 'EUR' })],
      ['merchant', () => authorizeOnCard(app, token, 2_500n, { ...body, merchant: 'Elsewhere' })],
      ['card', () => authorizeOnCard(app, other.token, 2_500n, body)],
      ['unknown card', () => authorizeOnCard(app, 'sandbox_card_unknown', 2_500n, body)],
    ] as const) {
      const response = await send();
      expect(response.statusCode, `${what}: ${response.body}`).toBe(409);
      expect(response.json().error.code, what).toBe('processor_id_reused');
    }
    expect(await footprint(customer)).toEqual(before);
    expect(await footprint(other.customer)).toEqual(otherBefore);
    expect((await authorizeOnCard(app, token, 2_500n, body)).json()).toEqual(first.json());

    // A settlement id is bound to its type as well as to its authorization.
    const settlementId = `settle_${newId()}`;
    const captured = await settle(app, id, 'capture', settlementId);
    expect(captured.json()).toMatchObject({ status: 'settled' });
    const asReversal = await settle(app, id, 'reversal', settlementId);
    expect(asReversal.statusCode).toBe(409);
    expect(asReversal.json().error.code).toBe('processor_id_reused');
    expect((await settle(app, id, 'capture', settlementId)).json()).toEqual(captured.json());
  });

  it('releases the hold on a reversal or an expiry, and gives the week’s allowance back', async () => {
    const { customer, token } = await cardholder();
    for (const type of ['reversal', 'expiry'] as const) {
      const id = `auth_${newId()}`;
      await authorizeOnCard(app, token, 4_000n, { id });
      const released = await settle(app, id, type);
      expect(released.json().status).toBe(type === 'reversal' ? 'reversed' : 'expired');
    }
    expect(await wallet(customer)).toMatchObject({ balanceMinor: 90_000n, heldMinor: 0n });
    expect((await customer.client.get('/api/v1/cards')).json().spending.spentThisWeekMinor).toBe(
      '0',
    );
  });

  it('declines above the weekly limit, counting what the week already spent', async () => {
    const { customer, token } = await cardholder('20000.00');
    expect((await authorizeOnCard(app, token, weeklyLimitMinor - 100n)).json().approved).toBe(true);
    const before = await footprint(customer);
    const over = await authorizeOnCard(app, token, 101n);
    expect(over.json()).toMatchObject({ approved: false, declineReason: 'weekly_limit_exceeded' });
    const after = await footprint(customer);
    expect(after.authorizations).toBe(before.authorizations + 1);
    expect({ ...after, authorizations: 0 }).toEqual({ ...before, authorizations: 0 });
    expect((await authorizeOnCard(app, token, 100n)).json().approved).toBe(true);
    const overview = (await customer.client.get('/api/v1/cards')).json();
    expect(overview.spending.spentThisWeekMinor).toBe(weeklyLimitMinor.toString());
    const resetsAt = new Date(overview.spending.resetsAt);
    expect(resetsAt.getUTCDay()).toBe(1);
    expect(resetsAt.getUTCHours()).toBe(0);
    expect(resetsAt.getTime()).toBeGreaterThan(Date.now());
  });

  it('declines above the available balance, counting held funds', async () => {
    const { customer, token } = await cardholder('150.00');
    expect((await authorizeOnCard(app, token, 3_000n)).json().approved).toBe(true);
    const before = await footprint(customer);
    const over = await authorizeOnCard(app, token, 2_001n);
    expect(over.json()).toMatchObject({ approved: false, declineReason: 'insufficient_funds' });
    expect((await footprint(customer)).heldMinor).toBe(before.heldMinor);
  });

  it('declines on a frozen card and a frozen account, and approves again once unfrozen', async () => {
    const { customer, cardId, token } = await cardholder();
    expect((await customer.client.post(`/api/v1/cards/${cardId}/freeze`)).json().status).toBe(
      'frozen',
    );
    const onFrozenCard = await authorizeOnCard(app, token, 100n);
    expect(onFrozenCard.json()).toMatchObject({ approved: false, declineReason: 'card_frozen' });
    const declines = (await customer.client.get(`/api/v1/cards/${cardId}/authorizations`)).json();
    expect(declines.items[0]).toMatchObject({ status: 'declined', declineReason: 'card_frozen' });
    expect((await customer.client.post(`/api/v1/cards/${cardId}/unfreeze`)).json().status).toBe(
      'issued',
    );
    await app.db.query("UPDATE users SET frozen_at = now(), frozen_reason = 'x' WHERE id = $1", [
      customer.user.id,
    ]);
    const onFrozenAccount = await authorizeOnCard(app, token, 100n);
    expect(onFrozenAccount.json()).toMatchObject({ declineReason: 'account_frozen' });
    await app.db.query('UPDATE users SET frozen_at = NULL, frozen_reason = NULL WHERE id = $1', [
      customer.user.id,
    ]);
    expect((await authorizeOnCard(app, token, 100n)).json().approved).toBe(true);
    expect((await wallet(customer)).heldMinor).toBe(100n);
  });

  it('declines another currency than the card’s', async () => {
    const { token } = await cardholder();
    const other = await authorizeOnCard(app, token, 100n, { currency: 'EUR' });
    expect(other.json()).toMatchObject({ approved: false, declineReason: 'currency_mismatch' });
  });

  it('refuses a bad, stale or missing signature with 401, writing nothing', async () => {
    const { customer, token } = await cardholder();
    const body = {
      id: `auth_${newId()}`,
      cardToken: token,
      amountMinor: '100',
      currency: 'USD',
      merchant: 'Shop',
    };
    const before = await footprint(customer);
    const attempts = [
      await signedIssuingCall(app, 'authorizations', body, { secret: 'x'.repeat(64) }),
      await signedIssuingCall(app, 'authorizations', body, { nowMs: Date.now() - 6 * 60 * 1000 }),
      await signedIssuingCall(app, 'authorizations', body, { nowMs: Date.now() + 6 * 60 * 1000 }),
      await signedIssuingCall(app, 'authorizations', body, { signature: '' }),
      await app.inject({
        method: 'POST',
        url: '/api/v1/issuing/authorizations',
        payload: body,
      }),
      await signedIssuingCall(
        app,
        'settlements',
        { id: 's', authorizationId: body.id, type: 'capture' },
        {
          secret: 'y'.repeat(64),
        },
      ),
    ];
    for (const attempt of attempts) {
      expect(attempt.statusCode).toBe(401);
      expect(attempt.json().error.code).toBe('signature_invalid');
    }
    expect(await footprint(customer)).toEqual(before);
    // A signed body that is not what the schema wants is a 400, still writing nothing.
    const malformed = await signedIssuingCall(app, 'authorizations', {
      ...body,
      amountMinor: '-5',
    });
    expect(malformed.statusCode).toBe(400);
    expect(await footprint(customer)).toEqual(before);
  });

  it('answers another customer’s card id with 404', async () => {
    const { cardId } = await cardholder();
    const other = await level2();
    for (const path of ['freeze', 'unfreeze']) {
      expect((await other.client.post(`/api/v1/cards/${cardId}/${path}`)).statusCode).toBe(404);
    }
    expect((await other.client.get(`/api/v1/cards/${cardId}/authorizations`)).statusCode).toBe(404);
  });

  it('keeps the issuer token unique to its card: a token is enough to find the card', async () => {
    const { cardId, token } = await cardholder();
    expect(await cardToken(app, cardId)).toBe(token);
  });
});

describe('sandbox simulated purchases', () => {
  it('signs and sends an authorization and its settlement through the issuing endpoints', async () => {
    const customer = await level2();
    const { cardId } = await issuedCard(app, customer, admin.client);
    const key = newIdempotencyKey();
    const purchase = () =>
      customer.client.post(
        '/api/v1/cards/simulated-purchases',
        { merchant: 'Sandbox Books', amount: '12.34' },
        { 'idempotency-key': key },
      );
    const first = await purchase();
    expect(first.statusCode).toBe(200);
    expect(first.json().authorization).toMatchObject({ status: 'settled', amountMinor: '1234' });
    expect((await purchase()).json()).toEqual(first.json());
    expect(await wallet(customer)).toMatchObject({ balanceMinor: 88_766n, heldMinor: 0n });
    const over = await customer.client.post(
      '/api/v1/cards/simulated-purchases',
      { merchant: 'Big Store', amount: '15000.00' },
      { 'idempotency-key': newIdempotencyKey() },
    );
    expect(over.json().authorization).toMatchObject({
      status: 'declined',
      declineReason: 'weekly_limit_exceeded',
    });
    const activity = (await customer.client.get(`/api/v1/cards/${cardId}/authorizations`)).json();
    expect(activity.items).toHaveLength(2);
    const bad = await customer.client.post(
      '/api/v1/cards/simulated-purchases',
      { merchant: 'Shop', amount: '1.234' },
      { 'idempotency-key': newIdempotencyKey() },
    );
    expect(bad.statusCode).toBe(400);
  });

  it('refuses without an issued card', async () => {
    const customer = await level2();
    const refused = await customer.client.post(
      '/api/v1/cards/simulated-purchases',
      { merchant: 'Shop', amount: '1.00' },
      { 'idempotency-key': newIdempotencyKey() },
    );
    expect(refused.statusCode).toBe(409);
  });
});
