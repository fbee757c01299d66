// Markups set by staff over the configured ones (issue #33 item 5, ADR 051's amendment):
// an admin changes a pair's markup with a reason, audited; the next quote uses it, a quote
// made before keeps its own; back to the configured default is audited too.
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { createCustomer, type TestCustomer } from '../../../test/customers.ts';
import { newIdempotencyKey, staffClient, type TestClient } from '../../../test/http.ts';
import type { Database } from '../../db/client.ts';

let app: FastifyInstance;
let db: Database;

useTestApp(
  (opened) => {
    ({ app, db } = opened);
  },
  {
    env: {
      COFFER_SANDBOX: '1',
      COFFER_CURRENCIES: 'USD,EUR,JPY,KWD,GBP',
      COFFER_FX_MARKUP: '{"*": 50, "GBP/USD": 30}',
      COFFER_FX_MARKUP_MAX: '1000',
    },
    checksAfterEach: 'ledger',
  },
);

const reason = 'Yen liquidity costs more this week';

function setMarkup(client: TestClient, pair: string, body: object, key = newIdempotencyKey()) {
  return client.request('PUT', `/api/v1/admin/exchange/markups/${pair}`, body, {
    'idempotency-key': key,
  });
}

function resetMarkup(client: TestClient, pair: string, body: object) {
  return client.request('DELETE', `/api/v1/admin/exchange/markups/${pair}`, body, {
    'idempotency-key': newIdempotencyKey(),
  });
}

async function germanWithYenWallet(): Promise<TestCustomer> {
  const customer = await createCustomer(app, { country: 'DE', level: 2, balance: '500.00' });
  expect((await customer.client.post('/api/v1/wallets', { currency: 'JPY' })).statusCode).toBe(201);
  return customer;
}

function quoteEuros(customer: TestCustomer, amount = '100.00') {
  return customer.client.post('/api/v1/exchange/quotes', {
    sellCurrency: 'EUR',
    receiveCurrency: 'JPY',
    side: 'sell',
    amount,
  });
}

async function auditEventsOf(action: string) {
  const found = await db.query<{
    actor_user_id: string;
    before: unknown;
    after: unknown;
    reason: string;
    subject_user_id: string | null;
  }>(
    'SELECT actor_user_id, before, after, reason, subject_user_id FROM audit_events WHERE action = $1 ORDER BY id',
    [action],
  );
  return found.rows;
}

async function staffMarkupOf(admin: TestClient, pair: string) {
  const rates = (await admin.get('/api/v1/admin/exchange/rates')).json();
  return rates.markups.find((markup: { pair: string }) => markup.pair === pair);
}

describe('markups set by staff', () => {
  it('uses a changed markup in the next quote, keeps an earlier quote’s, and audits the change', async () => {
    const admin = await staffClient(app, 'admin');
    const customer = await germanWithYenWallet();
    const before = await quoteEuros(customer);
    expect(before.json()).toMatchObject({ markupBp: 50, receiveMinor: '16042' });

    // Either direction names the one pair; it is kept as EUR/JPY.
    const changed = await setMarkup(admin.client, 'JPY-EUR', { markupBp: 120, reason });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({
      pair: 'EUR/JPY',
      markupBp: 120,
      configuredMarkupBp: 50,
      source: 'staff',
      setBy: expect.stringMatching(/^Admin /),
      reason,
    });

    // 16 123 yen at mid less 1.2 % (193.476): the customer receives 15 929.
    const after = await quoteEuros(customer);
    expect(after.json()).toMatchObject({
      markupBp: 120,
      receiveMinor: '15929',
      markupMinor: '193',
    });
    const yenToEuro = await customer.client.post('/api/v1/exchange/quotes', {
      sellCurrency: 'JPY',
      receiveCurrency: 'EUR',
      side: 'sell',
      amount: '1000',
    });
    expect(yenToEuro.json().markupBp).toBe(120);

    // The quote made before the change executes at the markup it showed.
    const accepted = await customer.client.post(
      `/api/v1/exchange/quotes/${before.json().quoteId}/accept`,
    );
    expect(accepted.statusCode, accepted.body).toBe(201);
    expect(accepted.json().receiveMinor).toBe('16042');

    // The customers' rates and the staff's page show it; other pairs keep theirs.
    const customerRates = (await customer.client.get('/api/v1/exchange/rates')).json();
    const euroYen = customerRates.pairs.find(
      (pair: { sellCurrency: string; receiveCurrency: string }) =>
        pair.sellCurrency === 'EUR' && pair.receiveCurrency === 'JPY',
    );
    expect(euroYen.markupBp).toBe(120);
    expect(await staffMarkupOf(admin.client, 'GBP/USD')).toMatchObject({
      markupBp: 30,
      source: 'configured',
      setBy: null,
    });

    const events = await auditEventsOf('fx_markup_set');
    expect(events).toEqual([
      {
        actor_user_id: admin.user.id,
        subject_user_id: null,
        before: { pair: 'EUR/JPY', markupBp: 50, source: 'configured' },
        after: { pair: 'EUR/JPY', markupBp: 120, source: 'staff' },
        reason,
      },
    ]);

    // Back to the configured default: audited, and the next quote uses 50 again.
    const reset = await resetMarkup(admin.client, 'EUR-JPY', { reason: 'Back to normal' });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json()).toMatchObject({ markupBp: 50, source: 'configured', setBy: null });
    expect((await quoteEuros(customer)).json().markupBp).toBe(50);
    expect(await auditEventsOf('fx_markup_reset')).toEqual([
      {
        actor_user_id: admin.user.id,
        subject_user_id: null,
        before: { pair: 'EUR/JPY', markupBp: 120, source: 'staff' },
        after: { pair: 'EUR/JPY', markupBp: 50, source: 'configured' },
        reason: 'Back to normal',
      },
    ]);
    const again = await resetMarkup(admin.client, 'EUR-JPY', { reason: 'Back to normal' });
    expect([again.statusCode, again.json().error.code]).toEqual([409, 'state_conflict']);
  });

  it('sets a markup once per Idempotency-Key', async () => {
    const admin = await staffClient(app, 'admin');
    const key = newIdempotencyKey();
    const first = await setMarkup(admin.client, 'GBP-JPY', { markupBp: 70, reason }, key);
    const retry = await setMarkup(admin.client, 'GBP-JPY', { markupBp: 70, reason }, key);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    expect(
      (await auditEventsOf('fx_markup_set')).filter((event) => event.reason === reason),
    ).toHaveLength(2);
    const withoutKey = await admin.client.request('PUT', '/api/v1/admin/exchange/markups/GBP-JPY', {
      markupBp: 70,
      reason,
    });
    expect(withoutKey.json().error.code).toBe('idempotency_key_required');
  });

  it.each([
    ['EUR-CHF', { markupBp: 10, reason }, 400, 'currency_not_offered'],
    ['EUR-XYZ', { markupBp: 10, reason }, 400, 'validation_failed'],
    ['EUR-EUR', { markupBp: 10, reason }, 400, 'same_currency'],
    ['EURJPY', { markupBp: 10, reason }, 400, 'validation_failed'],
    ['EUR-USD', { markupBp: -1, reason }, 400, 'validation_failed'],
    ['EUR-USD', { markupBp: 12.5, reason }, 400, 'validation_failed'],
    ['EUR-USD', { markupBp: '10', reason }, 400, 'validation_failed'],
    // Within the arithmetic's bound but over the operator's maximum (1000).
    ['EUR-USD', { markupBp: 1001, reason }, 400, 'validation_failed'],
    ['EUR-USD', { markupBp: 5001, reason }, 400, 'validation_failed'],
    ['EUR-USD', { markupBp: 10, reason: '' }, 400, 'validation_failed'],
    ['EUR-USD', { markupBp: 10, reason: 'x'.repeat(501) }, 400, 'validation_failed'],
    ['EUR-USD', { markupBp: 10, reason: 'x'.repeat(10_000) }, 400, 'validation_failed'],
    ['EUR-USD', { markupBp: 10, reason: 'Rate\u0000review' }, 400, 'validation_failed'],
    ['EUR-%00USD', { markupBp: 10, reason }, 400, 'validation_failed'],
  ])('refuses %s %j with %i %s and changes nothing', async (pair, body, status, code) => {
    const admin = await staffClient(app, 'admin');
    const eventsBefore = (await auditEventsOf('fx_markup_set')).length;
    const refused = await setMarkup(admin.client, pair, body);
    expect([refused.statusCode, refused.json().error.code]).toEqual([status, code]);
    expect((await auditEventsOf('fx_markup_set')).length).toBe(eventsBefore);
    expect((await staffMarkupOf(admin.client, 'EUR/USD')).source).toBe('configured');
  });

  it('names the operator’s maximum beside the field', async () => {
    const admin = await staffClient(app, 'admin');
    const refused = await setMarkup(admin.client, 'EUR-USD', { markupBp: 1001, reason });
    expect(refused.json().error.fields.markupBp).toBe('Set at most 1000 basis points.');
    const atMost = await setMarkup(admin.client, 'EUR-USD', { markupBp: 1000, reason });
    expect(atMost.statusCode, atMost.body).toBe(200);
    await resetMarkup(admin.client, 'EUR-USD', { reason: 'Test done' });
  });

  it('lets support read the markups but not change them; customers are told nothing exists', async () => {
    const support = await staffClient(app, 'support');
    const customer = await createCustomer(app);
    const read = await support.client.get('/api/v1/admin/exchange/rates');
    expect(read.statusCode).toBe(200);
    expect(read.json().markupBpMaxForStaff).toBe(1000);
    expect(read.json().markups.map((markup: { pair: string }) => markup.pair)).toContain('EUR/JPY');

    for (const [client, status] of [
      [support.client, 403],
      [customer.client, 404],
    ] as const) {
      const put = await setMarkup(client, 'EUR-USD', { markupBp: 10, reason });
      expect(put.statusCode).toBe(status);
      const del = await resetMarkup(client, 'EUR-USD', { reason });
      expect(del.statusCode).toBe(status);
    }
    expect((await customer.client.get('/api/v1/admin/exchange/rates')).statusCode).toBe(404);
    expect(
      (await auditEventsOf('fx_markup_set')).some(
        (event) => event.actor_user_id === support.user.id,
      ),
    ).toBe(false);
  });
});
