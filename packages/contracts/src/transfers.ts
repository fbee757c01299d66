import { z } from 'zod';
import { invalidAmountMessage, minorUnitsSchema } from './money.ts';
import { recipientSchema } from './recipient.ts';
import { stepUpCodeSchema } from './step-up.ts';
import { singleLineText } from './text.ts';

export { recipientRefusedMessage, recipientSchema } from './recipient.ts';

/**
 * The typed decimal text of a Quick Pay ("12.50"); the server parses it in the wallet's
 * currency, where a wrong precision or a non-number is "Invalid amount".
 */
export const quickPayAmountSchema = singleLineText({ max: 40, tooLong: invalidAmountMessage }).min(
  1,
  invalidAmountMessage,
);

export const recipientPreviewBodySchema = z.object({ recipient: recipientSchema });

/**
 * What the sender sees before confirming: the name masked ("J*** D***"), and the currency
 * (always the sender's: a recipient in another currency is refused like an unknown one).
 */
export const recipientPreviewSchema = z.object({
  maskedName: z.string(),
  currency: z.string(),
});
export type RecipientPreview = z.infer<typeof recipientPreviewSchema>;

export const quickPayBodySchema = z.object({
  recipient: recipientSchema,
  amount: quickPayAmountSchema,
  /** Becomes the entry's memo: short, and one line. */
  note: singleLineText({ max: 140 }).optional(),
  /** Required at or above the step-up threshold (`stepUpThresholdMajor`). */
  stepUpCode: stepUpCodeSchema.optional(),
});
export type QuickPayBody = z.infer<typeof quickPayBodySchema>;

export const transferSchema = z.object({
  entryId: z.string(),
  amountMinor: minorUnitsSchema,
  currency: z.string(),
  recipientMaskedName: z.string(),
  note: z.string().nullable(),
  createdAt: z.iso.datetime(),
});
export type Transfer = z.infer<typeof transferSchema>;

export const transferListQuerySchema = z.object({
  cursor: z.uuid().optional(),
  limit: z.coerce.number().int().min(1).max(50).default(10),
});

/** One Quick Pay as either side sees it: sent by them, or received from someone. */
export const transferListItemSchema = transferSchema.omit({ recipientMaskedName: true }).extend({
  direction: z.enum(['sent', 'received']),
  counterpartyMaskedName: z.string(),
});
export type TransferListItem = z.infer<typeof transferListItemSchema>;

export const transferListSchema = z.object({
  items: z.array(transferListItemSchema),
  nextCursor: z.string().nullable(),
});
export type TransferList = z.infer<typeof transferListSchema>;
