import type { GlMap, TrialBalance } from '@coffer/contracts/books';
import { minorUnits } from '@coffer/contracts/money';
import type { Database } from '../../db/client.ts';
import type { Ledger } from '../../ledger/ledger.ts';
import { AppError } from '../../platform/app-error.ts';
import {
  booksFirstDay,
  closedBalances,
  closeProgress,
  dayBounds,
  daysWithProblems,
  findClosedDay,
  insertClose,
  type KindBalance,
  type Movement,
  movementsBetween,
  todayIn,
} from './queries.ts';

export type BooksDeps = {
  db: Database;
  ledger: Ledger;
  config: { timeZone: string; glMap: GlMap };
};

/** The close looks for finished days this often; a day closes within a minute of 00:00. */
export const booksCloseIntervalMs = 60 * 1000;
/**
 * The most days one run closes: a long outage is caught up over several runs, each short
 * enough to finish well inside the job's lease.
 */
export const closeDaysPerRunMax = 100;
/** The most problem days the staff home lists. */
export const alertDaysMax = 10;

/** "2026-11-04" after "2026-11-03". */
export function nextDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}

const balanceKey = (row: { currency: string; accountKind: string }) =>
  `${row.currency}:${row.accountKind}`;

/**
 * Carries balances over a span: each kind's opening is its earlier closing (or zero), its
 * closing the opening plus the span's credits less its debits. Kinds that neither had a
 * balance nor moved are left out.
 */
export function rollForward(previous: KindBalance[], movements: Movement[]): KindBalance[] {
  const rows = new Map<string, KindBalance>();
  for (const row of previous) {
    rows.set(balanceKey(row), {
      currency: row.currency,
      accountKind: row.accountKind,
      openingMinor: row.closingMinor,
      debitsMinor: 0n,
      creditsMinor: 0n,
      closingMinor: row.closingMinor,
    });
  }
  for (const movement of movements) {
    const key = balanceKey(movement);
    const row = rows.get(key) ?? {
      ...movement,
      openingMinor: 0n,
      debitsMinor: 0n,
      creditsMinor: 0n,
      closingMinor: 0n,
    };
    row.debitsMinor += movement.debitsMinor;
    row.creditsMinor += movement.creditsMinor;
    row.closingMinor = row.openingMinor + row.creditsMinor - row.debitsMinor;
    rows.set(key, row);
  }
  return [...rows.values()].sort((a, b) => balanceKey(a).localeCompare(balanceKey(b)));
}

/** What does not balance: per currency, debits must equal credits and closings sum to zero. */
export function unbalancedCurrencies(balances: KindBalance[]): string[] {
  const totals = new Map<string, { debits: bigint; credits: bigint; closing: bigint }>();
  for (const row of balances) {
    const total = totals.get(row.currency) ?? { debits: 0n, credits: 0n, closing: 0n };
    total.debits += row.debitsMinor;
    total.credits += row.creditsMinor;
    total.closing += row.closingMinor;
    totals.set(row.currency, total);
  }
  return [...totals]
    .filter(([, total]) => total.debits !== total.credits || total.closing !== 0n)
    .map(
      ([currency, total]) =>
        `${currency} does not balance: debits ${total.debits}, credits ${total.credits}, balances sum to ${total.closing}`,
    );
}

/**
 * Closes every finished day not closed yet, oldest first, from the day of the first
 * journal entry: a day missed while no instance ran is closed at the next run. Each day
 * is the previous close carried forward by that day's lines alone. The ledger's invariant
 * check runs once per run that closes anything; what it finds is recorded on each day the
 * run closes, since it speaks of the ledger as it is, not of one day. Returns the days
 * this run closed.
 */
export async function closeDueDays(deps: BooksDeps, now: Date): Promise<string[]> {
  const { timeZone } = deps.config;
  const progress = await closeProgress(deps.db, now, timeZone);
  const firstToClose = progress.lastClosedDay ? nextDay(progress.lastClosedDay) : progress.firstDay;
  if (!firstToClose || firstToClose >= progress.today) return [];
  const violations = await deps.ledger.checkInvariants();
  const closed: string[] = [];
  for (
    let day = firstToClose;
    day < progress.today && closed.length < closeDaysPerRunMax;
    day = nextDay(day)
  ) {
    const isClosed = await deps.db.transaction(async (tx) => {
      const dayOfZone = await dayBounds(tx, day, timeZone);
      const previous = await findClosedDay(tx, day, 'before');
      // The day takes up where the last close ended: if COFFER_TIMEZONE changed since, its
      // own midnight would count some lines twice (moved east) or never (moved west).
      const startsAt = previous?.endsAt ?? dayOfZone.startsAt;
      // A move east of more than a day leaves this day empty; it still ends after it starts.
      const endsAt = new Date(Math.max(dayOfZone.endsAt.getTime(), startsAt.getTime() + 1));
      const bounds = { startsAt, endsAt };
      const opening = previous ? await closedBalances(tx, previous.day) : [];
      const { movements, lineCount } = await movementsBetween(tx, bounds.startsAt, bounds.endsAt);
      const balances = rollForward(opening, movements);
      const problems = [...unbalancedCurrencies(balances), ...violations];
      return insertClose(tx, {
        day,
        timeZone,
        ...bounds,
        lineCount,
        isBalanced: problems.length === 0,
        problems,
        balances,
      });
    });
    // Another instance got there first: it closes the rest too.
    if (!isClosed) break;
    closed.push(day);
  }
  return closed;
}

/**
 * A day's balances per currency and account kind: the closed snapshot, or for a day not
 * closed yet the last close before it carried forward by every line since, live.
 */
async function dayBalances(
  deps: BooksDeps,
  day: string,
): Promise<{ balances: KindBalance[]; closedAt: Date | null }> {
  const closed = await findClosedDay(deps.db, day, 'on');
  if (closed) return { balances: await closedBalances(deps.db, day), closedAt: closed.closedAt };
  const bounds = await dayBounds(deps.db, day, deps.config.timeZone);
  const previous = await findClosedDay(deps.db, day, 'before');
  const previousBalances = previous ? await closedBalances(deps.db, previous.day) : [];
  const gap = await movementsBetween(deps.db, previous?.endsAt ?? null, bounds.startsAt);
  const opening = rollForward(previousBalances, gap.movements);
  const { movements } = await movementsBetween(deps.db, bounds.startsAt, bounds.endsAt);
  return { balances: rollForward(opening, movements), closedAt: null };
}

/**
 * The trial balance of a day: per currency, each GL code's opening balance, debits,
 * credits and closing balance (account kinds that share a code are added together).
 */
export async function trialBalance(
  deps: BooksDeps,
  query: { date: string; currency?: string | undefined },
): Promise<TrialBalance> {
  const today = await todayIn(deps.db, deps.config.timeZone);
  if (query.date > today) {
    const message = `The books have no ${query.date} yet: today is ${today}`;
    throw new AppError('validation_failed', { message, fields: { date: message } });
  }
  // Before the first entry there were no books: neither closed nor in progress.
  const firstDay = (await booksFirstDay(deps.db, deps.config.timeZone)) ?? today;
  if (query.date < firstDay) {
    const message = `The books begin on ${firstDay}: there is nothing before it`;
    throw new AppError('validation_failed', { message, fields: { date: message } });
  }
  const { balances, closedAt } = await dayBalances(deps, query.date);
  const byCurrency = new Map<
    string,
    Map<string, TrialBalance['currencies'][number]['rows'][number]>
  >();
  for (const row of balances) {
    if (query.currency && row.currency !== query.currency) continue;
    const gl = deps.config.glMap[row.accountKind];
    const rows = byCurrency.get(row.currency) ?? new Map();
    const glRow = rows.get(gl.code) ?? {
      glCode: gl.code,
      glName: gl.name,
      openingMinor: minorUnits(0n),
      debitsMinor: minorUnits(0n),
      creditsMinor: minorUnits(0n),
      closingMinor: minorUnits(0n),
    };
    glRow.openingMinor = minorUnits(glRow.openingMinor + row.openingMinor);
    glRow.debitsMinor = minorUnits(glRow.debitsMinor + row.debitsMinor);
    glRow.creditsMinor = minorUnits(glRow.creditsMinor + row.creditsMinor);
    glRow.closingMinor = minorUnits(glRow.closingMinor + row.closingMinor);
    rows.set(gl.code, glRow);
    byCurrency.set(row.currency, rows);
  }
  return {
    date: query.date,
    timeZone: deps.config.timeZone,
    status: closedAt ? 'closed' : 'provisional',
    closedAt: closedAt?.toISOString() ?? null,
    currencies: [...byCurrency]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([currency, rows]) => {
        const sorted = [...rows.values()].sort((a, b) => a.glCode.localeCompare(b.glCode));
        const totalDebitsMinor = sorted.reduce((sum, row) => sum + row.debitsMinor, 0n);
        const totalCreditsMinor = sorted.reduce((sum, row) => sum + row.creditsMinor, 0n);
        const closingSumMinor = sorted.reduce((sum, row) => sum + row.closingMinor, 0n);
        return {
          currency,
          rows: sorted,
          totalDebitsMinor: minorUnits(totalDebitsMinor),
          totalCreditsMinor: minorUnits(totalCreditsMinor),
          isBalanced: totalDebitsMinor === totalCreditsMinor && closingSumMinor === 0n,
        };
      }),
  };
}

/** The closed days the staff home warns about. */
export async function booksAlerts(deps: BooksDeps) {
  const days = await daysWithProblems(deps.db, alertDaysMax);
  return { items: days.map((day) => ({ date: day.day, problems: day.problems })) };
}
