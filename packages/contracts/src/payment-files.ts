import { reasonSchema, staffNameSchema } from './admin.ts';
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

export const reconciliationKinds = [
  'unmatched_credit',
  'unmatched_debit',
  'amount_difference',
  'missing_payout',
] as const;
export type ReconciliationKind = (typeof reconciliationKinds)[number];

export const reconciliationKindLabels: Record<ReconciliationKind, string> = {
  unmatched_credit: 'Credit matching no customer',
  unmatched_debit: 'Debit matching no payout',
  amount_difference: 'Amount differs from the payout',
  missing_payout: 'Sent payout missing from the statements',
};

/** How an item was resolved: a note, a deposit request for a customer, or a later match. */
export const reconciliationResolutions = ['note', 'deposit', 'matched'] as const;

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
 * customer it was meant for: a deposit request that always waits for a second admin.
 */
export const resolveReconciliationBodySchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('note'), note: reasonSchema }),
  z.object({
    action: z.literal('deposit'),
    accountNumber: accountNumberSchema,
    note: reasonSchema,
  }),
]);
export type ResolveReconciliationBody = z.infer<typeof resolveReconciliationBodySchema>;
