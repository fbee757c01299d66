// Many authorizations on one card at once, and authorizations racing a freeze, through the
// real signed endpoints: true concurrency needs PostgreSQL.
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { authorizeOnCard, issuedCard } from '../../../test/cards.ts';
import { createCustomer } from '../../../test/customers.ts';
import { staffClient } from '../../../test/http.ts';
import type { Database } from '../../db/client.ts';

let db: Database;
let app: FastifyInstance;
let admin: Awaited<ReturnType<typeof staffClient>>;

useTestApp(
  async (opened) => {
    ({ app, db } = opened);
    admin = await staffClient(app, 'admin');
  },
  { poolSize: 30, checksAfterEach: 'ledger' },
);

/** USD's default weekly card limit: 15,000.00. */
const weeklyLimitMinor = 1_500_000n;
const authorizationCount = 100;
/** 100 × 250.00 = 25,000.00: more than the weekly limit and than either balance below. */
const amountMinor = 25_000n;

function approvedCount(responses: LightMyRequestResponse[]): number {
  for (const response of responses) expect(response.statusCode, response.body).toBe(200);
  return responses.filter((response) => response.json().approved).length;
}

async function cardholder(balance: string) {
  const customer = await createCustomer(app, { level: 2, balance });
  return { customer, ...(await issuedCard(app, customer, admin.client)) };
}

/** What the ledger and the card say was approved: held funds and the week's count. */
async function approvedTotals(cardId: string) {
  const found = await db.query<{ held: bigint; spent: bigint; approved: bigint }>(
    `SELECT b.held_minor AS held, c.spent_minor AS spent,
            (SELECT coalesce(sum(amount_minor), 0)::bigint FROM card_authorizations
              WHERE card_id = c.id AND status = 'approved') AS approved
       FROM cards c JOIN account_balances b ON b.account_id = c.account_id WHERE c.id = $1`,
    [cardId],
  );
  const row = found.rows[0];
  if (!row) throw new Error('no card');
  return row;
}

describe('100 concurrent authorizations on one card', () => {
  it('never approves past the weekly limit (the balance is larger)', async () => {
    const { cardId, token } = await cardholder('20100.00');
    const responses = await Promise.all(
      Array.from({ length: authorizationCount }, () => authorizeOnCard(app, token, amountMinor)),
    );
    const approved = approvedCount(responses);
    const totals = await approvedTotals(cardId);
    expect(BigInt(approved) * amountMinor).toBe(totals.approved);
    expect(totals.approved).toBeLessThanOrEqual(weeklyLimitMinor);
    // The limit divides by the amount: exactly the limit's worth gets through.
    expect(totals.approved).toBe(weeklyLimitMinor);
    expect(totals.held).toBe(totals.approved);
    expect(totals.spent).toBe(totals.approved);
  });

  it('never approves past the available balance (the weekly limit is larger)', async () => {
    const { customer, cardId, token } = await cardholder('10100.00');
    const availableMinor = (await app.ledger.balance(customer.wallet.id)).availableMinor;
    const responses = await Promise.all(
      Array.from({ length: authorizationCount }, () => authorizeOnCard(app, token, amountMinor)),
    );
    approvedCount(responses);
    const totals = await approvedTotals(cardId);
    expect(totals.approved).toBeLessThanOrEqual(availableMinor);
    expect(totals.approved).toBe(availableMinor);
    expect(totals.held).toBe(totals.approved);
    const balance = await app.ledger.balance(customer.wallet.id);
    expect(balance.availableMinor).toBe(0n);
  });

  it('answers 100 concurrent retries of one authorization once, with one hold', async () => {
    const { cardId, token } = await cardholder('1000.00');
    const id = `auth_race_${cardId}`;
    const responses = await Promise.all(
      Array.from({ length: authorizationCount }, () => authorizeOnCard(app, token, 1_000n, { id })),
    );
    expect(approvedCount(responses)).toBe(authorizationCount);
    const totals = await approvedTotals(cardId);
    expect(totals.held).toBe(1_000n);
    const holds = await db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM card_authorizations WHERE processor_id = $1',
      [id],
    );
    expect(holds.rows[0]?.count).toBe(1);
  });
});

describe('one processor id sent for two cards at once', () => {
  it('approves it on one card and refuses it on the other as a reused id, every time', async () => {
    const first = await cardholder('1000.00');
    const second = await cardholder('1000.00');
    for (let round = 0; round < 10; round += 1) {
      const id = `auth_twin_${round}_${first.cardId}`;
      const responses = await Promise.all([
        authorizeOnCard(app, first.token, 1_000n, { id }),
        authorizeOnCard(app, second.token, 1_000n, { id }),
      ]);
      const statuses = responses.map((response) => response.statusCode).sort();
      expect(statuses, responses.map((response) => response.body).join(' ')).toEqual([200, 409]);
      const refused = responses.find((response) => response.statusCode === 409);
      expect(refused?.json().error.code).toBe('processor_id_reused');
    }
    const held =
      (await approvedTotals(first.cardId)).held + (await approvedTotals(second.cardId)).held;
    expect(held).toBe(10_000n);
  });
});

describe('authorizations racing a freeze', () => {
  it('approves none that is decided after the freeze commits', async () => {
    const { customer, cardId, token } = await cardholder('20000.00');
    const racing = Array.from({ length: 60 }, (_, index) =>
      // Stagger a little so that some land before and some after the freeze.
      sleep(index % 20).then(() => authorizeOnCard(app, token, 1_000n)),
    );
    const freeze = sleep(8).then(() => customer.client.post(`/api/v1/cards/${cardId}/freeze`));
    const [frozen, ...responses] = await Promise.all([freeze, ...racing]);
    expect(frozen.statusCode, frozen.body).toBe(200);
    approvedCount(responses);
    const late = await db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM card_authorizations a JOIN cards c ON c.id = a.card_id
        WHERE a.card_id = $1 AND a.status = 'approved' AND a.decided_at >= c.frozen_at`,
      [cardId],
    );
    expect(late.rows[0]?.count).toBe(0);
    const declined = await db.query<{ reason: string | null }>(
      "SELECT DISTINCT decline_reason AS reason FROM card_authorizations WHERE card_id = $1 AND status = 'declined'",
      [cardId],
    );
    expect(declined.rows.every((row) => row.reason === 'card_frozen')).toBe(true);
    const after = await authorizeOnCard(app, token, 1_000n);
    expect(after.json()).toMatchObject({ approved: false, declineReason: 'card_frozen' });
    const totals = await approvedTotals(cardId);
    expect(totals.held).toBe(totals.approved);
  });
});
