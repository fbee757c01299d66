import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.ts';
import { redateEntries } from '../../test/books.ts';
import { createCustomer } from '../../test/customers.ts';
import { createWallet, deposit, transferLines } from '../../test/factories.ts';
import type { Database } from '../db/client.ts';
import { lineIdMax, summarizeClosedHours } from './hourly-totals.ts';
import { type AccountId, postBackDated } from './ledger.ts';

let app: FastifyInstance;
let db: Database;

useTestApp(
  (opened) => {
    ({ app, db } = opened);
  },
  { checksAfterEach: 'ledger' },
);

const minuteMs = 60_000;
const dayMs = 24 * 60 * minuteMs;

type Sums = { credits: string; debits: string; lines: string };

/** What wallet_period_sums adds up to over [start, end) up to a line. */
async function periodSums(
  accountId: AccountId,
  start: Date,
  end: Date,
  lastLineId = lineIdMax,
): Promise<Sums> {
  const found = await db.query<Sums>(
    `SELECT coalesce(sum(credits_minor), 0)::text AS credits,
            coalesce(sum(debits_minor), 0)::text AS debits,
            coalesce(sum(line_count), 0)::text AS lines
       FROM wallet_period_sums($1, $2, $3, $4)`,
    [accountId, start, end, lastLineId],
  );
  return found.rows[0] as Sums;
}

/** The same, from the lines alone: what the totals must never differ from. */
async function lineSums(
  accountId: AccountId,
  start: Date,
  end: Date,
  lastLineId = lineIdMax,
): Promise<Sums> {
  const found = await db.query<Sums>(
    `SELECT coalesce(sum(amount_minor) FILTER (WHERE amount_minor > 0), 0)::text AS credits,
            coalesce(-sum(amount_minor) FILTER (WHERE amount_minor < 0), 0)::text AS debits,
            count(*)::text AS lines
       FROM journal_lines
      WHERE account_id = $1 AND posted_at >= $2 AND posted_at < $3 AND id <= $4`,
    [accountId, start, end, lastLineId],
  );
  return found.rows[0] as Sums;
}

/** Moves the entries with this memo to `at`. */
async function dateEntries(memo: string, at: Date): Promise<void> {
  await redateEntries(db, { set: '$1::timestamptz', where: 'memo = $2', params: [at, memo] });
}

async function summarizedBefore(): Promise<Date | null> {
  const found = await db.query<{ summarized_before: Date | null }>(
    'SELECT summarized_before FROM wallet_hourly_totals_state',
  );
  return found.rows[0]?.summarized_before ?? null;
}

describe('wallet hourly totals', () => {
  it('add up to exactly the lines, whatever the period, its edges and the last line read', async () => {
    const settlement = await app.ledger.systemAccount('settlement', 'USD' as never);
    const other = await createWallet(app.ledger);
    const historyStartMs = Math.floor((Date.now() - 6 * dayMs) / minuteMs) * minuteMs;
    const line = fc.record({
      minute: fc.integer({ min: 0, max: 5 * 24 * 60 }),
      // Positive: money in from the settlement account; negative: paid to another wallet.
      amountMinor: fc.bigInt({ min: -5_000n, max: 5_000n }).filter((amount) => amount !== 0n),
    });
    const period = fc
      .tuple(fc.integer({ min: -60, max: 6 * 24 * 60 }), fc.integer({ min: 0, max: 3 * 24 * 60 }))
      .map(([from, length]) => ({
        start: new Date(historyStartMs + from * minuteMs + 17_000),
        end: new Date(historyStartMs + (from + length) * minuteMs + 17_000),
      }));
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { minLength: 1, maxLength: 25 }),
        fc.array(period, { minLength: 1, maxLength: 4 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        async (lines, periods, lastLineShare) => {
          const wallet = await createWallet(app.ledger, { balance: '1000.00' });
          await dateEntries('test deposit', new Date(historyStartMs - dayMs));
          for (const [index, { minute, amountMinor }] of lines.entries()) {
            const memo = `line ${index}`;
            await app.ledger.post({
              kind: amountMinor > 0n ? 'deposit' : 'transfer',
              memo,
              lines:
                amountMinor > 0n
                  ? transferLines(settlement, wallet, amountMinor)
                  : transferLines(wallet, other, -amountMinor),
            });
            await dateEntries(memo, new Date(historyStartMs + minute * minuteMs + 123));
          }
          const ids = await db.query<{ first: string; last: string }>(
            'SELECT min(id)::text AS first, max(id)::text AS last FROM journal_lines WHERE account_id = $1',
            [wallet],
          );
          const first = BigInt(ids.rows[0]?.first ?? '0');
          const last = BigInt(ids.rows[0]?.last ?? '0');
          const lastLineId = first + BigInt(Math.floor(Number(last - first) * lastLineShare));

          expect(await summarizeClosedHours(db, new Date())).toBeGreaterThan(24 * 5);
          expect((await summarizedBefore())?.getTime()).toBeGreaterThan(
            Date.now() - 2 * 60 * minuteMs,
          );
          for (const { start, end } of periods) {
            expect(await periodSums(wallet, start, end)).toEqual(
              await lineSums(wallet, start, end),
            );
            expect(await periodSums(wallet, start, end, lastLineId)).toEqual(
              await lineSums(wallet, start, end, lastLineId),
            );
          }
        },
      ),
      { numRuns: 12 },
    );
  });

  it('leave a statement, the spending and the balance chart as they were, and count new lines', async () => {
    const customer = await createCustomer(app);
    const payee = await createCustomer(app);
    await deposit(app.ledger, customer.wallet.id, 90_000n);
    await app.ledger.post({
      kind: 'transfer',
      memo: 'rent',
      lines: transferLines(customer.wallet.id, payee.wallet.id, 25_050n),
    });
    await app.ledger.post({
      kind: 'bill_payment',
      memo: 'power',
      lines: transferLines(customer.wallet.id, payee.wallet.id, 4_321n),
    });
    // Into the middle of the last UTC month, at minutes that are not whole hours.
    const now = new Date();
    const lastMonthMid = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 14, 9, 41));
    await dateEntries('test deposit', lastMonthMid);
    await dateEntries('rent', new Date(lastMonthMid.getTime() + 50 * minuteMs));
    await dateEntries('power', new Date(lastMonthMid.getTime() + 3 * 60 * minuteMs));
    const month = lastMonthMid.toISOString().slice(0, 7);
    const reads = async () =>
      Promise.all(
        [
          `/api/v1/statements?month=${month}`,
          '/api/v1/wallet/spending',
          '/api/v1/wallet/balance-history?days=60',
        ].map(async (path) => {
          const response = await customer.client.get(path);
          expect(response.statusCode, path).toBe(200);
          return response.json();
        }),
      );
    const before = await reads();
    expect(before[0]).toMatchObject({
      moneyInMinor: '90000',
      moneyOutMinor: '29371',
      entryCount: 3,
    });

    await summarizeClosedHours(db, new Date());
    const summed = await db.query<{ kind: string; hour: Date; debits_minor: bigint }>(
      'SELECT kind::text, hour, debits_minor FROM wallet_hourly_totals WHERE account_id = $1 ORDER BY hour',
      [customer.wallet.id],
    );
    expect(summed.rows.map((row) => [row.kind, row.hour.toISOString(), row.debits_minor])).toEqual([
      ['deposit', new Date(lastMonthMid.getTime() - 41 * minuteMs).toISOString(), 0n],
      ['transfer', new Date(lastMonthMid.getTime() + 19 * minuteMs).toISOString(), 25_050n],
      ['bill_payment', new Date(lastMonthMid.getTime() + 139 * minuteMs).toISOString(), 4_321n],
    ]);
    expect(await reads()).toEqual(before);

    // A payment now is after the watermark: read from its line until its hour is summed.
    await app.ledger.post({
      kind: 'bill_payment',
      memo: 'water',
      lines: transferLines(customer.wallet.id, payee.wallet.id, 1_000n),
    });
    const spending = (await customer.client.get('/api/v1/wallet/spending')).json() as {
      months: { month: string; spentMinor: Record<string, string> }[];
    };
    expect(spending.months.at(-1)?.spentMinor.bill_payment).toBe('1000');
    expect(spending.months.at(-2)?.spentMinor.bill_payment).toBe('4321');
  });

  it('sums an hour only once it has closed, and again after an entry is back-dated into it', async () => {
    const wallet = await createWallet(app.ledger, { balance: '5.00' });
    await dateEntries('test deposit', new Date(Date.now() - 3 * dayMs));
    await summarizeClosedHours(db, new Date());
    const watermark = await summarizedBefore();
    expect(watermark?.getTime()).toBeLessThanOrEqual(Date.now() - 5 * minuteMs);
    expect(watermark?.getTime()).toBeGreaterThan(Date.now() - 65 * minuteMs);

    // The sandbox's demo history is the one writer of the past (postBackDated).
    const settlement = await app.ledger.systemAccount('settlement', 'USD' as never);
    const twoDaysAgo = new Date(Date.now() - 2 * dayMs);
    await postBackDated(db, { isSandbox: true }, [
      {
        posting: { kind: 'deposit', memo: 'demo', lines: transferLines(settlement, wallet, 700n) },
        postedAt: twoDaysAgo,
      },
    ]);
    const hourOfIt = Math.floor(twoDaysAgo.getTime() / (60 * minuteMs)) * 60 * minuteMs;
    expect((await summarizedBefore())?.getTime()).toBe(hourOfIt);
    const week = [new Date(Date.now() - 7 * dayMs), new Date()] as const;
    expect(await periodSums(wallet, ...week)).toEqual({ credits: '1200', debits: '0', lines: '2' });
    await summarizeClosedHours(db, new Date());
    expect(await summarizedBefore()).toEqual(watermark);
    expect(await periodSums(wallet, ...week)).toEqual({ credits: '1200', debits: '0', lines: '2' });
  });

  it('are checked against the lines by the ledger invariants', async () => {
    const wallet = await createWallet(app.ledger, { balance: '3.00' });
    await dateEntries('test deposit', new Date(Date.now() - dayMs));
    await summarizeClosedHours(db, new Date());
    expect(await app.ledger.checkInvariants()).toEqual([]);
    await db.query(
      'UPDATE wallet_hourly_totals SET credits_minor = credits_minor + 1 WHERE account_id = $1',
      [wallet],
    );
    expect((await app.ledger.checkInvariants()).join('\n')).toContain(
      `account balance or hourly totals differ from its lines: ${wallet} (hourly totals 301/0/1 vs lines 300/0/1)`,
    );
    await db.query(
      'UPDATE wallet_hourly_totals SET credits_minor = credits_minor - 1 WHERE account_id = $1',
      [wallet],
    );
  });

  it('sums nothing while the ledger is empty of entries before the watermark would move', async () => {
    expect(await summarizeClosedHours(db, new Date(Date.now() - 400 * dayMs))).toBe(0);
  });
});
