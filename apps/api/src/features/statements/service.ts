import { type CurrencyCode, toCurrencyCode } from '@coffer/contracts/currencies';
import type { EntryKind } from '@coffer/contracts/ledger';
import { minorUnits } from '@coffer/contracts/money';
import {
  type Statement,
  type StatementPeriod,
  statementPreviewEntriesMax,
} from '@coffer/contracts/statements';
import type { Queryable } from '../../db/client.ts';
import type { AccountId } from '../../ledger/ledger.ts';
import { AppError } from '../../platform/app-error.ts';
import { type QuickPayCounterpartyColumns, quickPayCounterpartySql } from '../wallet/queries.ts';
import { describeLine } from '../wallet/service.ts';

/** Lines read per query: a year of a busy account streams out without filling the memory. */
export const statementPageSize = 500;

export type StatementAccount = {
  holderName: string;
  accountId: AccountId;
  accountNumber: string;
  currency: CurrencyCode;
};

export type StatementLine = {
  lineId: bigint;
  createdAt: Date;
  kind: EntryKind;
  /** As the dashboard says it: a Quick Pay names the other customer, masked. */
  description: string;
  /** Signed: credits positive, debits negative. */
  amountMinor: bigint;
  balanceAfterMinor: bigint;
};

/**
 * What every format of a statement is written from: the opening balance, then the lines
 * of the period oldest first, a page at a time, each with the running balance after it.
 * The closing balance is the last running balance, so it always agrees with the lines.
 */
export type StatementSource = {
  account: StatementAccount;
  period: StatementPeriod;
  openingBalanceMinor: bigint;
  pages: () => AsyncGenerator<StatementLine[]>;
};

const dayMs = 24 * 60 * 60 * 1000;

/** The period's first instant and the instant after its last day (UTC). */
function periodBounds(period: StatementPeriod): { start: Date; end: Date } {
  return {
    start: new Date(`${period.from}T00:00:00.000Z`),
    end: new Date(Date.parse(`${period.to}T00:00:00.000Z`) + dayMs),
  };
}

async function statementAccountOf(db: Queryable, userId: string): Promise<StatementAccount> {
  const found = await db.query<{
    username: string;
    id: AccountId;
    number: string;
    currency: string;
  }>(
    `SELECT u.username, a.id, a.number, a.currency
       FROM users u JOIN accounts a ON a.owner_user_id = u.id AND a.kind = 'customer'
      WHERE u.id = $1`,
    [userId],
  );
  const row = found.rows[0];
  if (!row) throw new AppError('not_found');
  return {
    holderName: row.username,
    accountId: row.id,
    accountNumber: row.number,
    currency: toCurrencyCode(row.currency),
  };
}

/**
 * Opens the customer's statement for a period. The lines are bounded by the account's
 * newest line when it opens, so a download that takes a while still ends, and describes
 * the account as it was when it was asked for.
 */
export async function openStatement(
  db: Queryable,
  userId: string,
  period: StatementPeriod,
): Promise<StatementSource> {
  const account = await statementAccountOf(db, userId);
  const { start, end } = periodBounds(period);
  const newest = await db.query<{ line_id: bigint | null }>(
    'SELECT max(id) AS line_id FROM journal_lines WHERE account_id = $1',
    [account.accountId],
  );
  const lastLineId = newest.rows[0]?.line_id ?? 0n;
  const opening = await db.query<{ sum: bigint }>(
    `SELECT coalesce(sum(l.amount_minor), 0)::bigint AS sum
       FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
      WHERE l.account_id = $1 AND e.created_at < $2 AND l.id <= $3`,
    [account.accountId, start, lastLineId],
  );
  const openingBalanceMinor = opening.rows[0]?.sum ?? 0n;

  async function* pages(): AsyncGenerator<StatementLine[]> {
    let balanceMinor = openingBalanceMinor;
    let afterLineId = 0n;
    const counterparty = quickPayCounterpartySql('$7');
    for (;;) {
      const found = await db.query<
        {
          line_id: bigint;
          created_at: Date;
          kind: EntryKind;
          memo: string;
          amount_minor: bigint;
        } & QuickPayCounterpartyColumns
      >(
        `SELECT l.id AS line_id, e.created_at, e.kind, e.memo, l.amount_minor,
                ${counterparty.columns}
           FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
           ${counterparty.joins}
          WHERE l.account_id = $1 AND e.created_at >= $2 AND e.created_at < $3
            AND l.id > $4 AND l.id <= $5
          ORDER BY l.id LIMIT $6`,
        [account.accountId, start, end, afterLineId, lastLineId, statementPageSize, userId],
      );
      if (found.rows.length === 0) return;
      yield found.rows.map((row) => {
        balanceMinor += row.amount_minor;
        return {
          lineId: row.line_id,
          createdAt: row.created_at,
          kind: row.kind,
          description: describeLine(row),
          amountMinor: row.amount_minor,
          balanceAfterMinor: balanceMinor,
        };
      });
      if (found.rows.length < statementPageSize) return;
      afterLineId = found.rows.at(-1)?.line_id ?? lastLineId;
    }
  }

  return { account, period, openingBalanceMinor, pages };
}

/** Money in and out over the lines read so far; the closing balance is where they end. */
export type StatementTotals = {
  moneyInMinor: bigint;
  moneyOutMinor: bigint;
  entryCount: number;
  closingBalanceMinor: bigint;
};

export function emptyTotals(source: StatementSource): StatementTotals {
  return {
    moneyInMinor: 0n,
    moneyOutMinor: 0n,
    entryCount: 0,
    closingBalanceMinor: source.openingBalanceMinor,
  };
}

export function addToTotals(totals: StatementTotals, line: StatementLine): void {
  if (line.amountMinor > 0n) totals.moneyInMinor += line.amountMinor;
  else totals.moneyOutMinor -= line.amountMinor;
  totals.entryCount += 1;
  totals.closingBalanceMinor = line.balanceAfterMinor;
}

/** The on-screen preview: every total, and the first entries of the period. */
export async function statementPreview(source: StatementSource): Promise<Statement> {
  const totals = emptyTotals(source);
  const entries: Statement['entries'] = [];
  for await (const page of source.pages()) {
    for (const line of page) {
      addToTotals(totals, line);
      if (entries.length < statementPreviewEntriesMax) {
        entries.push({
          lineId: line.lineId.toString(),
          createdAt: line.createdAt.toISOString(),
          kind: line.kind,
          description: line.description,
          amountMinor: minorUnits(line.amountMinor),
          balanceAfterMinor: minorUnits(line.balanceAfterMinor),
        });
      }
    }
  }
  return {
    accountHolder: source.account.holderName,
    accountNumber: source.account.accountNumber,
    currency: source.account.currency,
    from: source.period.from,
    to: source.period.to,
    openingBalanceMinor: minorUnits(source.openingBalanceMinor),
    closingBalanceMinor: minorUnits(totals.closingBalanceMinor),
    moneyInMinor: minorUnits(totals.moneyInMinor),
    moneyOutMinor: minorUnits(totals.moneyOutMinor),
    entryCount: totals.entryCount,
    entries,
  };
}
