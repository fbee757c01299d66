import { reasonSchema, staffNameSchema } from './admin.ts';
import { booksDateSchema } from './books.ts';
import { accountNumberSchema } from './ledger.ts';
import { minorUnitsSchema } from './money.ts';
import { z } from './zod.ts';

/**
 * Payment files (issue #30 item 5): payouts leave in a batch file, the institution's bank
 * statements come in, and what does not match waits in the reconciliation queue.
 */

/** EUR bank payouts leave as ISO 20022 pain.001 (SEPA); other currencies as CSV. */
export const payoutBatchFormats = ['pain.001', 'csv'] as const;
export type PayoutBatchFormat = (typeof payoutBatchFormats)[number];

/** Payouts one batch may hold: a bank takes a file of this many without complaint. */
export const payoutBatchSizeMax = 1_000;

/** Entries one statement may hold; a longer file is refused whole. */
export const statementEntriesMax = 100_000;

/** The bytes one uploaded statement may have (100,000 entries of a few hundred bytes). */
export const statementBytesMax = 64 * 1024 * 1024;

export const createPayoutBatchBodySchema = z.object({
  payoutIds: z
    .array(z.uuid())
    .check(
      z.minLength(1, 'Choose at least one payout'),
      z.maxLength(payoutBatchSizeMax, `A batch holds at most ${payoutBatchSizeMax} payouts`),
    ),
});

export const payoutBatchSchema = z.object({
  id: z.string(),
  reference: z.string(),
  currency: z.string(),
  format: z.enum(payoutBatchFormats),
  payoutCount: z.number(),
  totalMinor: minorUnitsSchema,
  createdBy: staffNameSchema,
  createdAt: z.string(),
  downloadCount: z.number(),
  firstDownloadedAt: z.nullable(z.string()),
  firstDownloadedBy: z.nullable(staffNameSchema),
});
export type PayoutBatch = z.infer<typeof payoutBatchSchema>;

export const payoutBatchListSchema = z.object({ items: z.array(payoutBatchSchema) });

/** What importing one statement did. */
export const statementImportSchema = z.object({
  id: z.string(),
  statementReference: z.string(),
  entryCount: z.number(),
  depositRequestCount: z.number(),
  matchedPayoutCount: z.number(),
  queuedCount: z.number(),
});
export type StatementImport = z.infer<typeof statementImportSchema>;

/**
 * A card settlement file (docs/OPERATIONS.md "Card settlement files"): one settlement a
 * line, these columns in this order, amounts in decimals of the currency's exponent.
 */
export const cardSettlementColumns = [
  'settlement_id',
  'authorization_id',
  'card_last_four',
  'amount',
  'currency',
  'type',
  'settled_at',
] as const;

/** Settlements one file may hold; a longer file is refused whole. */
export const cardSettlementLinesMax = 100_000;

/** The bytes one card settlement file may have (100,000 lines of about 150 bytes). */
export const cardSettlementBytesMax = 32 * 1024 * 1024;

/** The day a card settlement file is for, in the institution's time zone. */
export const cardSettlementDayQuerySchema = z.object({ day: booksDateSchema });

/** What importing one card settlement file did. */
export const cardSettlementImportSchema = z.object({
  id: z.string(),
  day: z.string(),
  lineCount: z.number(),
  matchedCount: z.number(),
  queuedCount: z.number(),
});
export type CardSettlementImport = z.infer<typeof cardSettlementImportSchema>;

export const reconciliationKinds = [
  'unmatched_credit',
  'unmatched_debit',
  'amount_difference',
  'missing_payout',
  'unknown_settlement',
  'settlement_difference',
  'missing_settlement',
] as const;
export type ReconciliationKind = (typeof reconciliationKinds)[number];

export const reconciliationKindLabels: Record<ReconciliationKind, string> = {
  unmatched_credit: 'Credit matching no customer',
  unmatched_debit: 'Debit matching no payout',
  amount_difference: 'Amount differs from the payout',
  missing_payout: 'Sent payout missing from the statements',
  unknown_settlement: 'Card settlement we have no record of',
  settlement_difference: 'Card settlement differs from ours',
  missing_settlement: 'Card settlement missing from the file',
};

/**
 * How an item was resolved: a note, a deposit request for a customer, a refund to the
 * cardholder of what we took beyond the processor's settlement, or a later match.
 */
export const reconciliationResolutions = ['note', 'deposit', 'refund', 'matched'] as const;

export const reconciliationItemSchema = z.object({
  id: z.string(),
  kind: z.enum(reconciliationKinds),
  amountMinor: minorUnitsSchema,
  expectedMinor: z.nullable(minorUnitsSchema),
  currency: z.string(),
  bookingDate: z.nullable(z.string()),
  counterparty: z.nullable(z.string()),
  remittance: z.nullable(z.string()),
  bankReference: z.nullable(z.string()),
  payoutId: z.nullable(z.string()),
  /** The card purchase (authorization) a card settlement item is about. */
  cardAuthorizationId: z.nullable(z.string()),
  /** What a refund of it would give back to the cardholder; null when nothing would. */
  refundableMinor: z.nullable(minorUnitsSchema),
  reason: z.string(),
  status: z.enum(['open', 'resolved']),
  resolution: z.nullable(z.enum(reconciliationResolutions)),
  note: z.nullable(z.string()),
  moneyRequestId: z.nullable(z.string()),
  resolvedBy: z.nullable(staffNameSchema),
  resolvedAt: z.nullable(z.string()),
  createdAt: z.string(),
});
export type ReconciliationItem = z.infer<typeof reconciliationItemSchema>;

export const reconciliationListQuerySchema = z.object({
  status: z._default(z.enum(['open', 'resolved']), 'open'),
});

export const reconciliationListSchema = z.object({ items: z.array(reconciliationItemSchema) });

/**
 * Staff resolve an item with an audited note, or (an unmatched credit) by crediting the
 * customer it was meant for, or (a card purchase we took more for than the processor
 * settled, or that it never settled) by refunding the cardholder the difference: both a
 * deposit request that always waits for a second admin.
 */
export const resolveReconciliationBodySchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('note'), note: reasonSchema }),
  z.object({
    action: z.literal('deposit'),
    accountNumber: accountNumberSchema,
    note: reasonSchema,
  }),
  z.object({ action: z.literal('refund'), note: reasonSchema }),
]);
export type ResolveReconciliationBody = z.infer<typeof resolveReconciliationBodySchema>;
