import { toCurrencyCode } from '@coffer/contracts/currencies';
import { convert } from '@coffer/contracts/exchange';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/database.ts';
import { deposit } from '../../test/factories.ts';
import type { Database } from '../db/client.ts';
import { AppError } from '../platform/app-error.ts';
import { exchangeLines } from './exchange.ts';
import { type AccountId, createLedger, type Ledger } from './ledger.ts';

const currencies = ['JPY', 'KWD', 'USD'].map(toCurrencyCode);

let db: Database;
let ledger: Ledger;

beforeAll(async () => {
  db = await openTestDatabase();
  ledger = createLedger(db);
});
afterAll(async () => {
  await db.close();
});

/** Each currency's sum over every line: zero when each currency balances on its own. */
async function sumsPerCurrency(): Promise<Map<string, bigint>> {
  const result = await db.query<{ currency: string; total: bigint }>(
    'SELECT currency, sum(amount_minor)::bigint AS total FROM journal_lines GROUP BY currency',
  );
  return new Map(result.rows.map((row) => [row.currency.trim(), row.total]));
}

it('posts random exchanges between JPY, KWD and USD wallets with every currency balanced on its own', async () => {
  const books = new Map<string, { position: AccountId; income: AccountId; rounding: AccountId }>();
  for (const currency of currencies) {
    books.set(currency, {
      position: await ledger.systemAccount('fx_position', currency),
      income: await ledger.systemAccount('fx_income', currency),
      rounding: await ledger.systemAccount('fx_rounding', currency),
    });
  }
  const ownerUserId = crypto.randomUUID();
  const wallets = new Map<string, AccountId>();
  for (const [index, currency] of currencies.entries()) {
    wallets.set(currency, (await ledger.openWallet(ownerUserId, currency, db, index === 0)).id);
    await deposit(ledger, wallets.get(currency) as AccountId, 10n ** 9n, currency);
  }
  const model = new Map(currencies.map((currency) => [currency as string, 10n ** 9n]));

  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...currencies),
      fc.constantFrom(...currencies),
      fc.bigInt({ min: 1n, max: 10n ** 8n }),
      fc.bigInt({ min: 1n, max: 10_000_000n }),
      fc.integer({ min: 0, max: 6 }),
      fc.integer({ min: 0, max: 500 }),
      async (sell, receive, sellMinor, rateNumerator, rateScale, markupBp) => {
        fc.pre(sell !== receive);
        const mid = { numerator: rateNumerator, denominator: 10n ** BigInt(rateScale) };
        const conversion = convert({ sellMinor, sell, receive, mid, markupBp });
        fc.pre(conversion.receiveMinor > 0n);
        const sellBooks = books.get(sell);
        const receiveBooks = books.get(receive);
        if (!sellBooks || !receiveBooks) throw new Error('books opened above');
        const lines = exchangeLines(
          {
            sellWalletId: wallets.get(sell) as AccountId,
            receiveWalletId: wallets.get(receive) as AccountId,
            sellPositionId: sellBooks.position,
            receivePositionId: receiveBooks.position,
            receiveIncomeId: receiveBooks.income,
            receiveRoundingId: receiveBooks.rounding,
          },
          conversion,
        );
        const available = model.get(sell) ?? 0n;
        try {
          await ledger.post({ kind: 'exchange', memo: 'exchange', lines });
          model.set(sell, available - conversion.sellMinor);
          model.set(receive, (model.get(receive) ?? 0n) + conversion.receiveMinor);
        } catch (error) {
          // The only refusal: a sale above the wallet's balance, which leaves no trace.
          expect(error instanceof AppError && error.code === 'insufficient_funds').toBe(true);
          expect(conversion.sellMinor > available).toBe(true);
        }
        for (const currency of currencies) {
          const balance = await ledger.balance(wallets.get(currency) as AccountId);
          expect(balance.balanceMinor).toBe(model.get(currency));
        }
      },
    ),
    { numRuns: 60 },
  );

  for (const total of (await sumsPerCurrency()).values()) expect(total).toBe(0n);
  await ledger.assertInvariants();
});

it('refuses an exchange line set that does not balance in one currency, posting nothing', async () => {
  const usd = toCurrencyCode('USD');
  const jpy = toCurrencyCode('JPY');
  const ownerUserId = crypto.randomUUID();
  const usdWallet = (await ledger.openWallet(ownerUserId, usd)).id;
  const jpyWallet = (await ledger.openWallet(ownerUserId, jpy, db, false)).id;
  await deposit(ledger, usdWallet, 10_000n, usd);
  const before = await sumsPerCurrency();
  await expect(
    ledger.post({
      kind: 'exchange',
      memo: 'unbalanced',
      lines: [
        { accountId: usdWallet, amountMinor: -100n },
        { accountId: await ledger.systemAccount('fx_position', usd), amountMinor: 100n },
        { accountId: await ledger.systemAccount('fx_position', jpy), amountMinor: -150n },
        { accountId: jpyWallet, amountMinor: 151n },
      ],
    }),
  ).rejects.toThrow();
  expect(await sumsPerCurrency()).toEqual(before);
  expect((await ledger.balance(usdWallet)).balanceMinor).toBe(10_000n);
});

it('names an accepted quote whose entry is not an exchange of its amounts in two currencies', async () => {
  const usd = toCurrencyCode('USD');
  const ownerUserId = crypto.randomUUID();
  await db.query(
    `INSERT INTO users (id, username, email, country, role, password_hash)
     VALUES ($1, 'Quote Owner', $2, 'US', 'customer', 'not-a-hash')`,
    [ownerUserId, `owner-${ownerUserId}@coffer.test`],
  );
  const wallet = (await ledger.openWallet(ownerUserId, usd)).id;
  const { entryId } = await ledger.post({
    kind: 'deposit',
    memo: 'not an exchange',
    lines: [
      { accountId: await ledger.systemAccount('settlement', usd), amountMinor: -500n },
      { accountId: wallet, amountMinor: 500n },
    ],
  });
  const quoteId = crypto.randomUUID();
  await db.query(
    `INSERT INTO exchange_quotes (id, user_id, sell_account_id, receive_account_id, sell_currency,
       receive_currency, sell_minor, receive_minor, markup_minor, rounding_minor, position_minor,
       mid_rate, applied_rate, markup_bp, rate_at, expires_at, accepted_at, entry_id)
     VALUES ($1, $2, $3, $3, 'USD', 'JPY', 100, 150, 0, 0, 150, '1.5', '1.5', 0, now(), now(), now(), $4)`,
    [quoteId, ownerUserId, wallet, entryId],
  );
  const violations = await ledger.checkInvariants();
  expect(violations).toContainEqual(
    expect.stringMatching(/^exchange entry is not in exactly two currencies/),
  );
  expect(violations).toContainEqual(
    expect.stringMatching(/^accepted exchange quote differs from its entry/),
  );
  await db.query('DELETE FROM exchange_quotes WHERE id = $1', [quoteId]);
  await ledger.assertInvariants();
});
