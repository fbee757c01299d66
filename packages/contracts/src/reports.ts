import { booksDateSchema } from './books.ts';
import { currencyCodeSchema } from './currencies.ts';
import type { EntryKind } from './ledger.ts';
import { minorUnitsSchema } from './money.ts';
import { queueNames } from './queues.ts';
import { z } from './zod.ts';

/** The kinds of journal entry the reports chart, in the order their series are drawn. */
export const reportVolumeKinds = [
  'deposit',
  'transfer',
  'payout',
  'bill_payment',
  'card_purchase',
  'loan_disbursement',
  'loan_repayment',
] as const satisfies readonly EntryKind[];
export type ReportVolumeKind = (typeof reportVolumeKinds)[number];

/** How each series reads to staff: Quick Pay is what customers call a transfer. */
export const reportVolumeLabels: Record<ReportVolumeKind, string> = {
  deposit: 'Deposits',
  transfer: 'Quick Pay',
  payout: 'Payouts',
  bill_payment: 'Bill payments',
  card_purchase: 'Card purchases',
  loan_disbursement: 'Loan disbursements',
  loan_repayment: 'Loan repayments',
};

/** The longest period one report covers, in days: a leap year. */
export const reportDaysMax = 366;

export const reportsQuerySchema = z.object({
  // The books' days: year 0 and year 10000 are beyond PostgreSQL's dates (a 500 once).
  from: booksDateSchema,
  to: booksDateSchema,
  currency: currencyCodeSchema,
});
export type ReportsQuery = z.input<typeof reportsQuerySchema>;

const countSchema = z.number().check(z.int(), z.nonnegative());

/**
 * One day of the institution's report, in its time zone. A volume is what the day's entries
 * of that kind moved (the sum of their credit lines in the currency). Queue sizes are as
 * the day's last reading left them, and null for a day nobody read them (before the
 * readings began).
 */
const reportDaySchema = z.object({
  date: z.string(),
  volumesMinor: z.record(z.enum(reportVolumeKinds), minorUnitsSchema),
  newCustomers: countSchema,
  verificationsApproved: countSchema,
  openQueues: z.nullable(z.partialRecord(z.enum(queueNames), countSchema)),
});
export type ReportDay = z.infer<typeof reportDaySchema>;

export const reportsSchema = z.object({
  from: z.string(),
  to: z.string(),
  currency: z.string(),
  timeZone: z.string(),
  days: z.array(reportDaySchema),
});
export type Reports = z.infer<typeof reportsSchema>;
