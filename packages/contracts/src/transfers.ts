import { z } from 'zod';
import { accountNumberSchema } from './ledger.ts';
import { stepUpCodeSchema } from './step-up.ts';
import { singleLineText } from './text.ts';

/**
 * Who to pay: a 10-digit account number or an email address. The amount is the typed
 * decimal text ("12.50"); the server parses it in the wallet's currency, where a wrong
 * precision or a non-number is "Invalid withdrawal amount"-style field error.
 */
export const recipientSchema = singleLineText({ max: 254 })
  .min(1, 'Enter an account number or email')
  .refine(
    (value) => accountNumberSchema.safeParse(value).success || z.email().safeParse(value).success,
    'Enter a 10-digit account number or an email address',
  );

export const recipientPreviewBodySchema = z.object({ recipient: recipientSchema });

/** What the sender sees before confirming: the name masked ("J*** D***"), and the currency. */
export const recipientPreviewSchema = z.object({
  maskedName: z.string(),
  currency: z.string(),
});
export type RecipientPreview = z.infer<typeof recipientPreviewSchema>;

export const quickPayBodySchema = z.object({
  recipient: recipientSchema,
  amount: singleLineText({ max: 40, tooLong: 'Invalid withdrawal amount' }).min(
    1,
    'Invalid withdrawal amount',
  ),
  /** Becomes the entry's memo: short, and one line. */
  note: singleLineText({ max: 140 }).optional(),
  /** Required at or above the step-up threshold (`stepUpThresholdMajor`). */
  stepUpCode: stepUpCodeSchema.optional(),
});
export type QuickPayBody = z.infer<typeof quickPayBodySchema>;

export const transferSchema = z.object({
  entryId: z.string(),
  amountMinor: z.string(),
  currency: z.string(),
  recipientMaskedName: z.string(),
  note: z.string().nullable(),
  createdAt: z.iso.datetime(),
});
export type Transfer = z.infer<typeof transferSchema>;

/**
 * Quick Pay moves money between wallets of one currency only. The server refuses with
 * this message and the form says the same as soon as the preview shows the difference.
 */
export function currencyMismatchMessage(senderCurrency: string, recipientCurrency: string): string {
  return `This recipient's account is in ${recipientCurrency} and yours is in ${senderCurrency}. Quick Pay only works between accounts in the same currency.`;
}

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
