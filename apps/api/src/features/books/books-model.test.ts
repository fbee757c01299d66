// The model test of the daily close: random postings over several simulated days, then
// every closed day must equal a recomputation from all lines, and every day's trial
// balance must balance.
import { toCurrencyCode } from '@coffer/contracts/currencies';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { daysAgo, moveEntriesBack } from '../../../test/books.ts';
import { createWallet } from '../../../test/factories.ts';
import type { Database } from '../../db/client.ts';
import type { AccountId } from '../../ledger/ledger.ts';
import type { CloseBalanceRow } from './queries.ts';
import { closeDueDays, trialBalance } from './service.ts';

let app: FastifyInstance;
let db: Database;

useTestApp(
  (opened) => {
    ({ app, db } = opened);
  },
  { checksAfterEach: 'ledger' },
);

const currencies = [toCurrencyCode('USD'), toCurrencyCode('JPY')];
const simulatedDays = 4;
const walletsPerCurrency = 3;

type Operation = {
  kind: 'deposit' | 'transfer' | 'fee' | 'bill_payment';
  currencyIndex: number;
  from: number;
  to: number;
  amountMinor: bigint;
};

const operation = fc.record({
  kind: fc.constantFrom('deposit', 'transfer', 'fee', 'bill_payment'),
  currencyIndex: fc.integer({ min: 0, max: currencies.length - 1 }),
  from: fc.integer({ min: 0, max: walletsPerCurrency - 1 }),
  to: fc.integer({ min: 0, max: walletsPerCurrency - 1 }),
  amountMinor: fc.bigInt({ min: 1n, max: 50_000n }),
}) satisfies fc.Arbitrary<Operation>;

/** A closed day's rows recomputed from every line of the ledger, not from the previous close. */
async function recompute(day: string): Promise<CloseBalanceRow[]> {
  const found = await db.query<CloseBalanceRow>(
    `WITH bounds AS (SELECT starts_at, ends_at FROM book_closes WHERE day = $1::date)
     SELECT l.currency, a.kind AS account_kind,
            coalesce(sum(l.amount_minor) FILTER (WHERE e.created_at < b.starts_at), 0)::bigint AS opening_minor,
            coalesce(sum(-l.amount_minor) FILTER (WHERE e.created_at >= b.starts_at AND l.amount_minor < 0), 0)::bigint AS debits_minor,
            coalesce(sum(l.amount_minor) FILTER (WHERE e.created_at >= b.starts_at AND l.amount_minor > 0), 0)::bigint AS credits_minor,
            sum(l.amount_minor)::bigint AS closing_minor
       FROM journal_entries e JOIN journal_lines l ON l.entry_id = e.id
       JOIN accounts a ON a.id = l.account_id CROSS JOIN bounds b
      WHERE e.created_at < b.ends_at
      GROUP BY l.currency, a.kind ORDER BY l.currency, a.kind`,
    [day],
  );
  return found.rows;
}

describe('the daily close, against a recomputation from every line', () => {
  it('closes each simulated day as all of its lines say, and each trial balance balances', async () => {
    const wallets = await Promise.all(
      currencies.map(async (currency) =>
        Promise.all(
          Array.from({ length: walletsPerCurrency }, () => createWallet(app.ledger, { currency })),
        ),
      ),
    );
    const balances = wallets.map((ofCurrency) => ofCurrency.map(() => 0n));
    const systemAccount = (kind: 'settlement' | 'fees' | 'bill_clearing', index: number) =>
      app.ledger.systemAccount(kind, currencies[index] ?? toCurrencyCode('USD'));

    // Today's postings too: they stay in the day in progress, which no close may take.
    for (let day = simulatedDays; day >= 0; day -= 1) {
      const since = new Date();
      const operations =
        fc.sample(fc.array(operation, { minLength: 5, maxLength: 15 }), {
          numRuns: 1,
          seed: 3_000 + day,
        })[0] ?? [];
      for (const op of operations) {
        const wallet = (index: number) => wallets[op.currencyIndex]?.[index] as AccountId;
        const held = balances[op.currencyIndex] as bigint[];
        const fromBalance = held[op.from] ?? 0n;
        let from: AccountId;
        let to: AccountId;
        if (op.kind === 'deposit') {
          from = await systemAccount('settlement', op.currencyIndex);
          to = wallet(op.to);
          held[op.to] = (held[op.to] ?? 0n) + op.amountMinor;
        } else {
          // Money leaves a wallet only when it has enough, as the ledger insists.
          if (fromBalance < op.amountMinor || (op.kind === 'transfer' && op.from === op.to))
            continue;
          from = wallet(op.from);
          to =
            op.kind === 'transfer'
              ? wallet(op.to)
              : await systemAccount(op.kind === 'fee' ? 'fees' : 'bill_clearing', op.currencyIndex);
          held[op.from] = fromBalance - op.amountMinor;
          if (op.kind === 'transfer') held[op.to] = (held[op.to] ?? 0n) + op.amountMinor;
        }
        await app.ledger.post({
          kind: op.kind,
          memo: `model ${op.kind}`,
          lines: [
            { accountId: from, amountMinor: -op.amountMinor },
            { accountId: to, amountMinor: op.amountMinor },
          ],
        });
      }
      if (day > 0) await moveEntriesBack(db, since, day);
    }

    const closed = await closeDueDays({ db, ledger: app.ledger, config: app.config }, new Date());
    const expectedDays = await Promise.all(
      Array.from({ length: simulatedDays }, (_, index) => daysAgo(db, simulatedDays - index)),
    );
    expect(closed).toEqual(expectedDays);

    for (const day of closed) {
      const stored = await db.query<CloseBalanceRow>(
        `SELECT currency, account_kind, opening_minor, debits_minor, credits_minor, closing_minor
           FROM book_close_balances WHERE day = $1::date ORDER BY currency, account_kind`,
        [day],
      );
      expect(stored.rows, day).toEqual(await recompute(day));
      const balance = await trialBalance(
        { db, ledger: app.ledger, config: app.config },
        { date: day },
      );
      expect(balance.status).toBe('closed');
      for (const section of balance.currencies) {
        expect(section.totalDebitsMinor, `${day} ${section.currency}`).toBe(
          section.totalCreditsMinor,
        );
        expect(section.isBalanced).toBe(true);
      }
    }
    const problemDays = await db.query('SELECT day FROM book_closes WHERE NOT is_balanced');
    expect(problemDays.rows).toEqual([]);
  });
});
