import { minorUnitsSchema } from './money.ts';
import { z } from './zod.ts';

const isoDatePattern = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a calendar date that exists: "2026-02-29" does not. */
function isRealDate(text: string): boolean {
  const match = isoDatePattern.exec(text);
  if (!match) return false;
  const [, year, month, day] = match.map(Number) as [number, number, number, number];
  // Not Date.UTC: it reads years 0 to 99 as 1900 to 1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1;
}

export const statementDateSchema = z
  .string()
  .check(
    z.regex(isoDatePattern, 'Enter a date like 2026-11-30'),
    z.refine(isRealDate, 'That date does not exist'),
  );

export const statementMonthSchema = z
  .string()
  .check(z.regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Pick a month like 2026-11'));

export const statementFormats = ['json', 'csv', 'pdf'] as const;
export type StatementFormat = (typeof statementFormats)[number];

/**
 * A statement covers a month (`month=2026-11`) or a range of whole UTC days
 * (`from=2026-11-03&to=2026-11-20`, both included). `json` is the on-screen preview.
 */
export const statementQuerySchema = z.object({
  month: z.optional(statementMonthSchema),
  from: z.optional(statementDateSchema),
  to: z.optional(statementDateSchema),
  format: z._default(z.enum(statementFormats), 'json'),
  /** One of the customer's wallets (issue #33); without it, the main wallet. */
  walletId: z.optional(z.uuid()),
});
export type StatementQuery = z.input<typeof statementQuerySchema>;

/** One statement covers at most a year (a leap year's worth of days). */
export const statementDaysMax = 366;

/**
 * The first month a statement can cover. No account is older, and it keeps every period
 * far from the calendar's edges (PostgreSQL has no year 0). The last is the current one.
 */
export const statementFirstMonth = '2000-01';
const statementFirstDay = `${statementFirstMonth}-01`;
const tooEarlyMessage = 'Statements start from January 2000';

/** Whole UTC days, both included; `label` names the file ("2026-11" or "2026-11-03_2026-11-20"). */
export type StatementPeriod = { from: string; to: string; label: string };

export type StatementPeriodResult =
  | { period: StatementPeriod }
  | { field: 'month' | 'from' | 'to'; message: string };

const dayMs = 24 * 60 * 60 * 1000;

/** Today's date in UTC, the calendar statements use: "2026-11-30". */
export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

function lastDayOfMonth(month: string): string {
  const [year = 0, monthNumber = 0] = month.split('-').map(Number);
  return new Date(Date.UTC(year, monthNumber, 0)).toISOString().slice(0, 10);
}

function daysCovered(from: string, to: string): number {
  return Math.round((Date.parse(to) - Date.parse(from)) / dayMs) + 1;
}

/**
 * Checks a statement request against today's UTC date and turns it into its days. The
 * current month ends today: a statement never covers days that have not happened.
 * ISO dates compare correctly as strings.
 */
export function resolveStatementPeriod(
  query: { month?: string | undefined; from?: string | undefined; to?: string | undefined },
  today: string,
): StatementPeriodResult {
  const { month, from, to } = query;
  if (month !== undefined) {
    if (from !== undefined || to !== undefined) {
      return { field: 'month', message: 'Pick a month or a date range, not both' };
    }
    const firstDay = `${month}-01`;
    if (firstDay < statementFirstDay) return { field: 'month', message: tooEarlyMessage };
    if (firstDay > today) return { field: 'month', message: 'This month has not started yet' };
    const lastDay = lastDayOfMonth(month);
    return { period: { from: firstDay, to: lastDay < today ? lastDay : today, label: month } };
  }
  if (from === undefined && to === undefined) {
    return { field: 'month', message: 'Pick a month or a date range' };
  }
  if (from === undefined) return { field: 'from', message: 'Pick the first day' };
  if (to === undefined) return { field: 'to', message: 'Pick the last day' };
  if (from < statementFirstDay) return { field: 'from', message: tooEarlyMessage };
  if (to > today) return { field: 'to', message: 'The statement cannot end after today' };
  if (from > to) return { field: 'to', message: 'The last day cannot be before the first day' };
  if (daysCovered(from, to) > statementDaysMax) {
    return { field: 'from', message: 'A statement covers at most one year' };
  }
  return { period: { from, to, label: from === to ? from : `${from}_${to}` } };
}

export function statementFileName(period: StatementPeriod, format: 'csv' | 'pdf'): string {
  return `coffer-statement-${period.label}.${format}`;
}

export const statementEntrySchema = z.object({
  lineId: z.string(),
  createdAt: z.iso.datetime(),
  kind: z.string(),
  /** As the dashboard says it: a Quick Pay names the other customer, masked. */
  description: z.string(),
  /** Signed: credits positive, debits negative. */
  amountMinor: minorUnitsSchema,
  balanceAfterMinor: minorUnitsSchema,
});
export type StatementEntry = z.infer<typeof statementEntrySchema>;

/** The on-screen preview; the CSV and PDF carry every entry. */
export const statementPreviewEntriesMax = 200;

export const statementSchema = z.object({
  accountHolder: z.string(),
  accountNumber: z.string(),
  /** Where the operator set an IBAN scheme (COFFER_IBAN); null otherwise. */
  iban: z.nullable(z.string()),
  currency: z.string(),
  /** The customer's zone: the days from and to are theirs, and entries' times are shown in it. */
  timeZone: z.string(),
  from: z.string(),
  to: z.string(),
  openingBalanceMinor: minorUnitsSchema,
  closingBalanceMinor: minorUnitsSchema,
  moneyInMinor: minorUnitsSchema,
  moneyOutMinor: minorUnitsSchema,
  entryCount: z.number().check(z.int()),
  /** The first `statementPreviewEntriesMax` entries, oldest first. */
  entries: z.array(statementEntrySchema),
});
export type Statement = z.infer<typeof statementSchema>;
