import { amountRefusals, minorUnitsSchema } from './money.ts';
import { multiLineText, singleLineText } from './text.ts';
import { z } from './zod.ts';

/**
 * PRODUCT.md section 5, extended for disputes started from a transaction (issue #31 item
 * 9): a card, bill or transfer line can be charged twice, for the wrong amount, or for
 * goods that never came. One list, so staff queues and filters see one set of types.
 */
export const disputeProblemTypes = [
  'withdrawal_not_working',
  'deposit_not_working',
  'unauthorized_transaction',
  'charged_twice',
  'goods_not_received',
  'wrong_amount',
  'other',
] as const;
export type DisputeProblemType = (typeof disputeProblemTypes)[number];

/** How staff and the customer's list name a type, whatever line it was about. */
export const disputeProblemTypeLabels: Record<DisputeProblemType, string> = {
  withdrawal_not_working: 'Withdrawal not working',
  deposit_not_working: 'Deposit not working',
  unauthorized_transaction: 'Unauthorized transaction',
  charged_twice: 'Charged twice',
  goods_not_received: 'Goods or service not received',
  wrong_amount: 'Wrong amount',
  other: 'Other',
};

export const disputeStatuses = ['pending', 'investigating', 'resolved', 'rejected'] as const;
export type DisputeStatus = (typeof disputeStatuses)[number];

export const disputeStatusLabels: Record<DisputeStatus, string> = {
  pending: 'Pending',
  investigating: 'Investigating',
  resolved: 'Resolved',
  rejected: 'Rejected',
};

/** REF- and nine characters A–Z0–9 (PRODUCT.md section 5). */
export const disputeReferencePattern = /REF-[A-Z0-9]{9}/;
export const disputeReferenceSchema = z.string().check(z.regex(/^REF-[A-Z0-9]{9}$/));

export const disputeDescriptionLengthMax = 2_000;
export const invalidDisputeAmountMessage = amountRefusals.dispute.message;
export const disputeReceivedMessage =
  'We have received your dispute. Quote this reference in any message to support.';
export const disputeFailedMessage = 'There was an error submitting your dispute. Please try again.';

export const disputeRefundSchema = z.object({
  amountMinor: minorUnitsSchema,
  currency: z.string(),
  status: z.enum(['pending_approval', 'posted', 'rejected']),
});

export const disputeSchema = z.object({
  id: z.string(),
  reference: z.string(),
  amountMinor: minorUnitsSchema,
  currency: z.string(),
  /** Typed on a general dispute; a transfer's other wallet; none for other transactions. */
  recipientAccountNumber: z.nullable(z.string()),
  problemType: z.enum(disputeProblemTypes),
  description: z.string(),
  entryId: z.nullable(z.string()),
  status: z.enum(disputeStatuses),
  resolutionNote: z.nullable(z.string()),
  refund: z.nullable(disputeRefundSchema),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type Dispute = z.infer<typeof disputeSchema>;

export const disputeListSchema = z.object({ items: z.array(disputeSchema) });

/** The transaction a dispute names, as staff see it beside the case. */
export const linkedTransactionSchema = z.object({
  id: z.string(),
  kind: z.string(),
  memo: z.string(),
  /** Signed, as the customer's wallet saw it. */
  amountMinor: minorUnitsSchema,
  currency: z.string(),
  createdAt: z.iso.datetime(),
});

/**
 * A transaction the customer may dispute, as the picker and a row's Dispute button start
 * from: no memo, which may hold staff's words; the dispute already about it, if any.
 */
export const disputeTransactionSchema = z.extend(z.omit(linkedTransactionSchema, { memo: true }), {
  disputeReference: z.nullable(z.string()),
});
export const disputeTransactionListSchema = z.object({ items: z.array(disputeTransactionSchema) });
export type DisputeTransaction = z.infer<typeof disputeTransactionListSchema>['items'][number];

export const staffDisputeSchema = z.extend(disputeSchema, {
  userId: z.string(),
  username: z.string(),
  linkedTransaction: z.nullable(linkedTransactionSchema),
});
export type StaffDispute = z.infer<typeof staffDisputeSchema>;

export const staffDisputeListSchema = z.object({ items: z.array(staffDisputeSchema) });

/**
 * The most one staff member may refund on a dispute alone: the disputed amount, or the
 * linked transaction's size (its line is signed) where one is linked in the same currency
 * and smaller. A refund above it waits for a second admin, whoever asks and whatever the
 * approval threshold. The API decides by it; the decision form warns by it.
 */
export function disputeRefundBound(
  dispute: { amountMinor: bigint; currency: string },
  linked: { amountMinor: bigint; currency: string } | null,
): { amountMinor: bigint; basis: string } {
  const linkedMinor = linked && linked.currency === dispute.currency ? linked.amountMinor : null;
  const linkedSizeMinor = linkedMinor !== null && linkedMinor < 0n ? -linkedMinor : linkedMinor;
  return linkedSizeMinor !== null && linkedSizeMinor < dispute.amountMinor
    ? { amountMinor: linkedSizeMinor, basis: 'the linked transaction’s amount' }
    : { amountMinor: dispute.amountMinor, basis: 'the disputed amount' };
}

const resolutionNoteSchema = multiLineText({ max: 1_000 }).check(
  z.minLength(1, 'Please write a note'),
);

export const disputeInvestigateBodySchema = z.object({ note: z.optional(resolutionNoteSchema) });
export const disputeRejectBodySchema = z.object({ note: resolutionNoteSchema });
export const disputeResolveBodySchema = z.object({
  note: resolutionNoteSchema,
  /** A refund to the customer's wallet, as typed ("25.00"); a staff deposit under approval. */
  refundAmount: z.optional(
    singleLineText({ max: 40, tooLong: 'Please enter a valid amount' }).check(
      z.regex(/^\d{1,16}(?:\.\d{1,4})?$/, 'Please enter a valid amount'),
    ),
  ),
});
