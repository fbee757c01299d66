// Fifty quotes accepted at once against one balance that covers ten of them (issue #33,
// "Bad input and races"): the wallet's floor is the ledger's conditional update, so it is
// never overdrawn, and each currency's lines still sum to zero. Needs PostgreSQL.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/app.ts';
import { createCustomer } from '../../../test/customers.ts';
import { openTestDatabase } from '../../../test/database.ts';
import type { Database } from '../../db/client.ts';

let db: Database;
let app: FastifyInstance;

beforeAll(async () => {
  db = await openTestDatabase({ poolSize: 20 });
  app = await buildTestApp(db, { COFFER_SANDBOX: '1', COFFER_FX_MARKUP: '{"*": 50}' });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await db.close();
});

describe('exchange under concurrency', () => {
  it('accepts only as many of 50 simultaneous quotes as the balance covers, and each quote once', async () => {
    const customer = await createCustomer(app, { country: 'DE', level: 2, balance: '100.00' });
    const opened = await customer.client.post('/api/v1/wallets', { currency: 'JPY' });
    expect(opened.statusCode).toBe(201);
    const quoteIds: string[] = [];
    for (let index = 0; index < 50; index += 1) {
      const quoted = await customer.client.post('/api/v1/exchange/quotes', {
        sellCurrency: 'EUR',
        receiveCurrency: 'JPY',
        side: 'sell',
        amount: '10.00',
      });
      expect(quoted.statusCode).toBe(201);
      quoteIds.push(quoted.json().quoteId);
    }
    // Every quote twice, all at once: a quote executes once, the balance covers ten.
    const answers = await Promise.all(
      [...quoteIds, ...quoteIds].map((quoteId) =>
        customer.client.post(`/api/v1/exchange/quotes/${quoteId}/accept`),
      ),
    );
    const accepted = answers.filter((answer) => answer.statusCode === 201);
    const refusals = answers
      .filter((answer) => answer.statusCode !== 201)
      .map((answer) => answer.json().error.code);
    expect(accepted).toHaveLength(10);
    expect(new Set(refusals)).toEqual(new Set(['insufficient_funds', 'quote_used']));
    expect(new Set(accepted.map((answer) => answer.json().quoteId)).size).toBe(10);

    const wallets = (await customer.client.get('/api/v1/wallets')).json();
    expect(wallets.items.map((item: { balanceMinor: string }) => item.balanceMinor)).toEqual([
      '0',
      String(10 * 1604),
    ]);
    const sums = await db.query<{ currency: string; total: string }>(
      'SELECT currency, sum(amount_minor)::text AS total FROM journal_lines GROUP BY currency',
    );
    for (const row of sums.rows) expect([row.currency, row.total]).toEqual([row.currency, '0']);
    await app.ledger.assertInvariants();
  });
});
