import { type CurrencyCode, toCurrencyCode } from '@coffer/contracts/currencies';
import type { EntryKind } from '@coffer/contracts/ledger';
import { minorUnits } from '@coffer/contracts/money';
import {
  type Statement,
  type StatementPeriod,
  statementPreviewEntriesMax,
} from '@coffer/contracts/statements';
import { timeZoneOfUser } from '../../customers/queries.ts';
import type { Queryable } from '../../db/client.ts';
import type { AccountId } from '../../ledger/ledger.ts';
import { accountIban, type IbanScheme } from '../../platform/account-iban.ts';
import { AppError } from '../../platform/app-error.ts';
import { describeLine } from '../wallet/service.ts';
import {
  findStatementAccount,
  periodInstants,
  statementLinesPage,
  statementOpening,
  statementTotals,
} from './queries.ts';

/** Lines read per query: a year of a busy account streams out without filling the memory. */
export const statementPageSize = 500;

export type StatementAccount = {
  holderName: string;
  /** The customer's zone: the period's days and every time are in it. */
  timeZone: string;
  accountId: AccountId;
  accountNumber: string;
  /** The account's IBAN where the operator set a scheme (COFFER_IBAN); null otherwise. */
  iban: string | null;
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
  /** The period's totals summed by the database, for a preview that shows few lines. */
  totals: () => Promise<StatementTotals>;
};

/** The customer's wallet, and the zone their statement's days are cut in. */
export async function statementAccountOf(
  db: Queryable,
  userId: string,
  config: { timeZone: string; ibanScheme: IbanScheme | null },
  walletId?: string,
): Promise<StatementAccount> {
  const row = await findStatementAccount(db, userId, walletId);
  if (!row) throw new AppError('not_found');
  return {
    // The verified legal name; before a verification is approved, the name we have.
    holderName: row.legal_name ?? row.username,
    timeZone: timeZoneOfUser(row, config),
    accountId: row.id,
    accountNumber: row.number,
    iban: config.ibanScheme ? accountIban(config.ibanScheme, row.number) : null,
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
  account: StatementAccount & { ownerUserId: string },
  period: StatementPeriod,
): Promise<StatementSource> {
  const { accountId, ownerUserId: userId } = account;
  const { start, end } = await periodInstants(db, { ...period, timeZone: account.timeZone });
  const { openingBalanceMinor, lastLineId } = await statementOpening(db, { accountId, start });

  async function* pages(): AsyncGenerator<StatementLine[]> {
    let balanceMinor = openingBalanceMinor;
    let afterLineId = 0n;
    for (;;) {
      const rows = await statementLinesPage(db, {
        accountId,
        ownerUserId: userId,
        start,
        end,
        afterLineId,
        lastLineId,
        limit: statementPageSize,
      });
      if (rows.length === 0) return;
      yield rows.map((row) => {
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
      if (rows.length < statementPageSize) return;
      afterLineId = rows.at(-1)?.line_id ?? lastLineId;
    }
  }

  async function totals(): Promise<StatementTotals> {
    const sums = await statementTotals(db, { accountId, start, end, lastLineId });
    return {
      ...sums,
      closingBalanceMinor: openingBalanceMinor + sums.moneyInMinor - sums.moneyOutMinor,
    };
  }

  return { account, period, openingBalanceMinor, pages, totals };
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

/**
 * The on-screen preview: every total, and the first entries of the period. The totals are
 * summed by the database, so a merchant's month of 80,000 lines reads one page, not all.
 */
export async function statementPreview(source: StatementSource): Promise<Statement> {
  const totals = await source.totals();
  const entries: Statement['entries'] = [];
  for await (const page of source.pages()) {
    for (const line of page.slice(0, statementPreviewEntriesMax - entries.length)) {
      entries.push({
        lineId: line.lineId.toString(),
        createdAt: line.createdAt.toISOString(),
        kind: line.kind,
        description: line.description,
        amountMinor: minorUnits(line.amountMinor),
        balanceAfterMinor: minorUnits(line.balanceAfterMinor),
      });
    }
    if (entries.length >= statementPreviewEntriesMax) break;
  }
  return {
    accountHolder: source.account.holderName,
    accountNumber: source.account.accountNumber,
    iban: source.account.iban,
    currency: source.account.currency,
    timeZone: source.account.timeZone,
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
