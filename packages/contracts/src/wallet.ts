import type { CurrencyCode } from './currencies.ts';
import { type EntryKind, entryKindSchema } from './ledger.ts';
import {
  AmountRefusedError,
  formatMoney,
  invalidStaffAmountMessage,
  MoneyParseError,
  minorUnitsSchema,
  parsePositiveAmount,
} from './money.ts';
import { singleLineText } from './text.ts';
import { z } from './zod.ts';

/** The customer's own wallet: what the dashboard's balance card shows. */
export const walletSummarySchema = z.object({
  accountNumber: z.string(),
  /** The account's IBAN where the operator set `COFFER_IBAN`, in its electronic form. */
  iban: z.nullable(z.string()),
  currency: z.string(),
  balanceMinor: minorUnitsSchema,
  /** Reserved for pending payouts: still in the balance, no longer available. */
  heldMinor: minorUnitsSchema,
  availableMinor: minorUnitsSchema,
});
export type WalletSummary = z.infer<typeof walletSummarySchema>;

/**
 * Completed: a ledger line. Pending: money held for a payout staff have not sent yet.
 * Rejected: a payout staff refused (its hold was released; the balance never changed).
 */
export const walletTransactionStatuses = ['completed', 'pending', 'rejected'] as const;
export type WalletTransactionStatus = (typeof walletTransactionStatuses)[number];

export const walletTransactionSchema = z.object({
  id: z.string(),
  status: z.enum(walletTransactionStatuses),
  createdAt: z.iso.datetime(),
  /** Signed minor units: credits positive, debits negative. */
  amountMinor: minorUnitsSchema,
  currency: z.string(),
  kind: entryKindSchema,
  description: z.string(),
  /** The journal entry of a ledger line, which a dispute names; null on an unsettled payout. */
  entryId: z.nullable(z.string()),
  /** The customer's dispute about this line, if they filed one. */
  disputeReference: z.nullable(z.string()),
});
export type WalletTransaction = z.infer<typeof walletTransactionSchema>;

export const walletTransactionPageSchema = z.object({
  items: z.array(walletTransactionSchema),
  nextCursor: z.nullable(z.string()),
});
export type WalletTransactionPage = z.infer<typeof walletTransactionPageSchema>;

/** Line ids are PostgreSQL bigints. */
const lineIdMax = 2n ** 63n - 1n;

/**
 * An opaque position in the transaction list, as `nextCursor` gave it: where the list
 * stopped in the ledger's lines and where in the payouts, either possibly empty.
 */
export const walletTransactionCursorSchema = z.string().check(
  z.regex(
    /^\d{0,19}~([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})?$/,
    'Not a valid page cursor',
  ),
  z.refine((cursor) => {
    const lineId = cursor.split('~')[0] ?? '';
    return /^\d{0,19}$/.test(lineId) && BigInt(lineId || '0') <= lineIdMax;
  }, 'Not a valid page cursor'),
);

export const walletTransactionsQuerySchema = z.object({
  cursor: z.optional(walletTransactionCursorSchema),
  /** One of the customer's wallets (issue #33); without it, the main wallet. */
  walletId: z.optional(z.uuid()),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 20),
});

/** The chart covers at most this many days back (a quarter), 30 by default. */
export const balanceHistoryDaysMax = 92;

export const balanceHistoryQuerySchema = z.object({
  days: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(balanceHistoryDaysMax)), 30),
});

/**
 * One point per UTC day, oldest first; today's is the balance now. A balance includes held
 * funds (pending withdrawals): `heldMinor` says how much of today's is held.
 */
export const balanceHistorySchema = z.object({
  currency: z.string(),
  points: z.array(z.object({ date: z.iso.date(), balanceMinor: minorUnitsSchema })),
  heldMinor: minorUnitsSchema,
});
export type BalanceHistory = z.infer<typeof balanceHistorySchema>;

export const recentDepositsQuerySchema = z.object({
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(50)), 10),
});

export const recentDepositsSchema = z.object({ items: z.array(walletTransactionSchema) });

/**
 * A typed amount of test money in minor units: a valid amount above zero and at most the
 * per-request cap (the currency's `testMoneyPerRequestMinor`). Throws MoneyParseError with
 * the message to show beside the field; the server and the form both call it.
 */
export function parseTestMoneyAmount(
  text: string,
  currency: CurrencyCode,
  capMinor: bigint,
): bigint {
  let amountMinor: bigint;
  try {
    amountMinor = parsePositiveAmount(text, currency, 'moneyRequest');
  } catch (error) {
    if (!(error instanceof AmountRefusedError)) throw error;
    throw new MoneyParseError(error.fieldMessage);
  }
  if (amountMinor > capMinor) {
    const cap = formatMoney({ amountMinor: capMinor, currency });
    throw new MoneyParseError(`Test money is limited to ${cap} per request.`);
  }
  return amountMinor;
}

/** Amount as typed ("250.00"); parsed in the wallet's currency on the server. */
export const testMoneyBodySchema = z.object({
  amount: singleLineText({ max: 40, tooLong: invalidStaffAmountMessage }).check(
    z.minLength(1, invalidStaffAmountMessage),
  ),
});
export type TestMoneyBody = z.infer<typeof testMoneyBodySchema>;

/**
 * GET /wallet/test-money (sandbox only): the operator's caps on test money, in the wallet's
 * currency, and what the customer has added since UTC midnight.
 */
export const testMoneyTermsSchema = z.object({
  currency: z.string(),
  perRequestMinor: minorUnitsSchema,
  dailyMinor: minorUnitsSchema,
  addedTodayMinor: minorUnitsSchema,
});
export type TestMoneyTerms = z.infer<typeof testMoneyTermsSchema>;

export const testMoneyResponseSchema = z.object({
  entryId: z.string(),
  amountMinor: minorUnitsSchema,
  currency: z.string(),
});

/**
 * The categories of a customer's spending, in the order the dashboard draws them (issue #30
 * item 6); here with the dashboard's other contracts, not in reports.ts, whose schemas
 * would load with every page that reads a wallet.
 */
export const spendingCategories = [
  'transfer',
  'bill_payment',
  'card_purchase',
  'payout',
] as const satisfies readonly EntryKind[];
export type SpendingCategory = (typeof spendingCategories)[number];

export const spendingCategoryLabels: Record<SpendingCategory, string> = {
  transfer: 'Quick Pay',
  bill_payment: 'Bills',
  card_purchase: 'Cards',
  payout: 'Payouts',
};

/** How many months the dashboard's spending chart shows, this one included. */
export const spendingMonths = 6;

/** The money that left the customer's wallet per month (UTC) and category, oldest first. */
export const spendingSchema = z.object({
  currency: z.string(),
  months: z.array(
    z.object({
      month: z.string(),
      spentMinor: z.record(z.enum(spendingCategories), minorUnitsSchema),
    }),
  ),
});
export type Spending = z.infer<typeof spendingSchema>;
