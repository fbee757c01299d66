import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildTestApp, useTestApp } from '../../../test/app.ts';
import { createCustomer, type TestCustomer } from '../../../test/customers.ts';
import { staffClient, type TestClient } from '../../../test/http.ts';
import type { Database } from '../../db/client.ts';

// The operator's file in the ECB's shape, dated today so that it is fresh.
const rateDir = mkdtempSync(path.join(os.tmpdir(), 'coffer-fx-'));
const today = new Date().toISOString().slice(0, 10);
function rateFile(name: string, header: string, values: string): string {
  const file = path.join(rateDir, name);
  writeFileSync(file, `${header}\n${values}\n`);
  return file;
}
const freshFile = rateFile(
  'fresh.csv',
  'Date, USD, JPY, GBP, KWD',
  `${today}, 1.0850, 161.23, 0.8420, 0.3340`,
);
const fxEnv = {
  COFFER_FX_FILE: freshFile,
  COFFER_CURRENCIES: 'USD,EUR,JPY,KWD,GBP',
  COFFER_FX_MARKUP: '{"*": 50}',
};

let app: FastifyInstance;
let db: Database;

useTestApp(
  (opened) => {
    ({ app, db } = opened);
  },
  { env: fxEnv, checksAfterEach: 'ledger' },
);

/** A German customer at level 2 with euros, and a JPY wallet opened through the API. */
async function germanWithYenWallet(
  balance = '500.00',
): Promise<TestCustomer & { yenWalletId: string }> {
  const customer = await createCustomer(app, { country: 'DE', level: 2, balance });
  const opened = await customer.client.post('/api/v1/wallets', { currency: 'JPY' });
  expect(opened.statusCode).toBe(201);
  return { ...customer, yenWalletId: opened.json().id };
}

function quote(client: TestClient, body: Record<string, string>) {
  return client.post('/api/v1/exchange/quotes', body);
}

function accept(client: TestClient, quoteId: string) {
  return client.post(`/api/v1/exchange/quotes/${quoteId}/accept`);
}

async function entryCount(): Promise<number> {
  const found = await db.query<{ count: string }>(
    'SELECT count(*)::text AS count FROM journal_entries',
  );
  return Number(found.rows[0]?.count);
}

describe('wallets', () => {
  it('opens a JPY wallet with its own account number and lists both, totalled as an estimate', async () => {
    const customer = await germanWithYenWallet();
    const list = (await customer.client.get('/api/v1/wallets')).json();
    expect(list.mainCurrency).toBe('EUR');
    expect(list.items.map((item: { currency: string }) => item.currency)).toEqual(['EUR', 'JPY']);
    expect(list.items[1].accountNumber).not.toBe(list.items[0].accountNumber);
    expect(list.totalEstimateMinor).toBe('50000');
    expect(list.openableCurrencies).toEqual(['USD', 'KWD', 'GBP']);
    const again = await customer.client.post('/api/v1/wallets', { currency: 'JPY' });
    expect(again.json().error.code).toBe('wallet_exists');
    // The main wallet stays what single-wallet routes answer.
    expect((await customer.client.get('/api/v1/wallet')).json().currency).toBe('EUR');
    const yen = await customer.client.get(`/api/v1/wallet?walletId=${customer.yenWalletId}`);
    expect(yen.json().currency).toBe('JPY');
  });

  it('refuses a level-1 customer, a currency not offered and another customer’s wallet', async () => {
    const levelOne = await createCustomer(app, { country: 'DE', level: 1 });
    const refused = await levelOne.client.post('/api/v1/wallets', { currency: 'JPY' });
    expect([refused.statusCode, refused.json().error.code]).toEqual([403, 'level_too_low']);
    const owner = await germanWithYenWallet();
    const notOffered = await owner.client.post('/api/v1/wallets', { currency: 'CHF' });
    expect(notOffered.json().error.code).toBe('currency_not_offered');
    const unknown = await owner.client.post('/api/v1/wallets', { currency: 'XYZ' });
    expect(unknown.statusCode).toBe(400);
    const other = await createCustomer(app, { country: 'DE', level: 2 });
    const peek = await other.client.get(
      `/api/v1/wallet/transactions?walletId=${owner.yenWalletId}`,
    );
    expect(peek.statusCode).toBe(404);
  });
});

describe('exchange', () => {
  it('quotes 100.00 EUR in yen, accepts it once and shows it on both statements with the rate', async () => {
    const customer = await germanWithYenWallet();
    const quoted = await quote(customer.client, {
      sellCurrency: 'EUR',
      receiveCurrency: 'JPY',
      side: 'sell',
      amount: '100.00',
    });
    expect(quoted.statusCode).toBe(201);
    const body = quoted.json();
    expect(body).toMatchObject({
      sellMinor: '10000',
      receiveMinor: '16042',
      midRate: '161.230000',
      appliedRate: '160.423850',
      markupBp: 50,
      markupMinor: '80',
      feeMinor: '0',
    });
    const stored = await db.query<{ seconds: number }>(
      'SELECT extract(epoch FROM expires_at - created_at)::int AS seconds FROM exchange_quotes WHERE id = $1',
      [body.quoteId],
    );
    expect(stored.rows[0]?.seconds).toBe(30);

    const accepted = await accept(customer.client, body.quoteId);
    expect(accepted.statusCode).toBe(201);
    const second = await accept(customer.client, body.quoteId);
    expect([second.statusCode, second.json().error.code]).toEqual([409, 'quote_used']);

    const wallets = (await customer.client.get('/api/v1/wallets')).json();
    expect(wallets.items.map((item: { balanceMinor: string }) => item.balanceMinor)).toEqual([
      '40000',
      '16042',
    ]);
    const month = today.slice(0, 7);
    const euroStatement = (await customer.client.get(`/api/v1/statements?month=${month}`)).json();
    const yenStatement = (
      await customer.client.get(
        `/api/v1/statements?month=${month}&walletId=${customer.yenWalletId}`,
      )
    ).json();
    const exchangeLine = (statement: { entries: { description: string; amountMinor: string }[] }) =>
      statement.entries.find((line) => line.description.startsWith('Exchange'));
    expect(exchangeLine(euroStatement)).toMatchObject({ amountMinor: '-10000' });
    expect(exchangeLine(yenStatement)).toMatchObject({ amountMinor: '16042' });
    expect(exchangeLine(yenStatement)?.description).toContain('at 160.423850 JPY per EUR');
    const yenCsv = await customer.client.get(
      `/api/v1/statements?month=${month}&format=csv&walletId=${customer.yenWalletId}`,
    );
    expect(yenCsv.body).toContain('Exchange EUR');
    expect(yenCsv.body).toContain('16042');

    // Staff see both wallets on the customer's page.
    const staff = await staffClient(app, 'support');
    const seen = (await staff.client.get(`/api/v1/admin/users/${customer.user.id}/wallets`)).json();
    expect(
      seen.items.map((item: { currency: string; balanceMinor: string }) => [
        item.currency,
        item.balanceMinor,
      ]),
    ).toEqual([
      ['EUR', '40000'],
      ['JPY', '16042'],
    ]);
  });

  it('quotes an amount to receive: sells the least euros that buy it', async () => {
    const customer = await germanWithYenWallet();
    const quoted = await quote(customer.client, {
      sellCurrency: 'EUR',
      receiveCurrency: 'JPY',
      side: 'receive',
      amount: '10000',
    });
    expect(quoted.json()).toMatchObject({ receiveMinor: '10000', sellMinor: '6234' });
  });

  it.each([
    [{ sellCurrency: 'EUR', receiveCurrency: 'EUR' }, 400, 'same_currency'],
    [{ sellCurrency: 'EUR', receiveCurrency: 'CHF' }, 400, 'currency_not_offered'],
    [{ sellCurrency: 'EUR', receiveCurrency: 'XYZ' }, 400, 'validation_failed'],
    [{ sellCurrency: 'EUR', receiveCurrency: 'GBP' }, 404, 'not_found'],
  ])('refuses %j with %i %s and posts nothing', async (pair, status, code) => {
    const customer = await germanWithYenWallet();
    const before = await entryCount();
    const refused = await quote(customer.client, { ...pair, side: 'sell', amount: '10.00' });
    expect([refused.statusCode, refused.json().error.code]).toEqual([status, code]);
    expect(await entryCount()).toBe(before);
  });

  it('refuses an amount that converts to less than the smallest unit', async () => {
    const customer = await germanWithYenWallet();
    await customer.client.post('/api/v1/wallets', { currency: 'KWD' });
    // 0.01 EUR is 3.34 fils: fine. Selling yen into pounds: 1 yen is half a penny.
    const tiny = await quote(customer.client, {
      sellCurrency: 'JPY',
      receiveCurrency: 'EUR',
      side: 'sell',
      amount: '1',
    });
    expect([tiny.statusCode, tiny.json().error.code]).toEqual([400, 'amount_too_small']);
  });

  it('refuses an expired quote, a frozen customer and a sale above the balance, posting nothing', async () => {
    const customer = await germanWithYenWallet('50.00');
    const terms = { sellCurrency: 'EUR', receiveCurrency: 'JPY', side: 'sell' };
    const expiring = (await quote(customer.client, { ...terms, amount: '10.00' })).json();
    await db.query(
      "UPDATE exchange_quotes SET expires_at = now() - interval '1 second' WHERE id = $1",
      [expiring.quoteId],
    );
    const tooBig = (await quote(customer.client, { ...terms, amount: '60.00' })).json();
    const fine = (await quote(customer.client, { ...terms, amount: '10.00' })).json();
    const before = await entryCount();
    const expired = await accept(customer.client, expiring.quoteId);
    expect([expired.statusCode, expired.json().error.code]).toEqual([409, 'quote_expired']);
    const overdrawn = await accept(customer.client, tooBig.quoteId);
    expect(overdrawn.json().error.code).toBe('insufficient_funds');
    await db.query("UPDATE users SET frozen_at = now(), frozen_reason = 'test' WHERE id = $1", [
      customer.user.id,
    ]);
    const frozen = await accept(customer.client, fine.quoteId);
    expect([frozen.statusCode, frozen.json().error.code]).toEqual([403, 'account_frozen']);
    expect(await entryCount()).toBe(before);
    const quotes = await db.query(
      'SELECT 1 FROM exchange_quotes WHERE user_id = $1 AND accepted_at IS NOT NULL',
      [customer.user.id],
    );
    expect(quotes.rows).toEqual([]);
  });

  it('answers another customer’s quote as not found', async () => {
    const owner = await germanWithYenWallet();
    const other = await germanWithYenWallet();
    const quoted = (
      await quote(owner.client, {
        sellCurrency: 'EUR',
        receiveCurrency: 'JPY',
        side: 'sell',
        amount: '1.00',
      })
    ).json();
    expect((await accept(other.client, quoted.quoteId)).statusCode).toBe(404);
  });

  it('shows staff the rates with their time, the markups and the source’s health', async () => {
    const staff = await staffClient(app, 'support');
    const rates = (await staff.client.get('/api/v1/admin/exchange/rates')).json();
    expect(rates.isHealthy).toBe(true);
    expect(rates.source).toContain('fresh.csv');
    expect(rates.pairs).toContainEqual(
      expect.objectContaining({
        sellCurrency: 'EUR',
        receiveCurrency: 'JPY',
        midRate: '161.230000',
        markupBp: 50,
      }),
    );
  });
});

describe('a rate file that cannot be used', () => {
  it.each([
    ['stale', 'Date, JPY', '2020-01-02, 161.23'],
    ['negative', 'Date, JPY', `${today}, -161.23`],
    ['missing', 'Date, JPY, GBP', `${today}, 161.23,`],
  ])('%s: exchange is unavailable and nothing is written', async (name, header, values) => {
    const other = await buildTestApp(db, {
      ...fxEnv,
      COFFER_FX_FILE: rateFile(`${name}.csv`, header, values),
    });
    await other.ready();
    try {
      const customer = await createCustomer(other, { country: 'DE', level: 2, balance: '10.00' });
      await customer.client.post('/api/v1/wallets', { currency: 'JPY' });
      const quotesBefore = await db.query('SELECT count(*)::int AS count FROM exchange_quotes');
      const refused = await customer.client.post('/api/v1/exchange/quotes', {
        sellCurrency: 'EUR',
        receiveCurrency: 'JPY',
        side: 'sell',
        amount: '5.00',
      });
      expect([refused.statusCode, refused.json().error.code]).toEqual([
        409,
        'exchange_unavailable',
      ]);
      expect((await db.query('SELECT count(*)::int AS count FROM exchange_quotes')).rows).toEqual(
        quotesBefore.rows,
      );
      const rates = (await customer.client.get('/api/v1/exchange/rates')).json();
      expect(rates.isHealthy).toBe(false);
    } finally {
      await other.close();
    }
  });
});
