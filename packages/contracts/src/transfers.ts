import { invalidAmountMessage, minorUnitsSchema } from './money.ts';
import { passkeyAssertionSchema } from './passkey-assertion.ts';
import { payingWalletIdSchema } from './paying-wallet.ts';
import { recipientSchema } from './recipient.ts';
import { stepUpCodeSchema } from './step-up.ts';
import { singleLineText } from './text.ts';
import { z } from './zod.ts';

export { recipientRefusedMessage, recipientSchema } from './recipient.ts';

/**
 * The typed decimal text of a Quick Pay ("12.50"); the server parses it in the wallet's
 * currency, where a wrong precision or a non-number is "Invalid amount".
 */
export const quickPayAmountSchema = singleLineText({
  max: 40,
  tooLong: invalidAmountMessage,
}).check(z.minLength(1, invalidAmountMessage));

export const recipientPreviewBodySchema = z.object({
  recipient: recipientSchema,
  /** The sending wallet: its currency is the payment's, and the recipient's wallet's. */
  walletId: payingWalletIdSchema,
});

/**
 * What the sender sees before confirming: the name masked ("J*** D***"), and the currency
 * (always the sending wallet's: a recipient in another currency is refused like an unknown one).
 */
export const recipientPreviewSchema = z.object({
  maskedName: z.string(),
  currency: z.string(),
});
export type RecipientPreview = z.infer<typeof recipientPreviewSchema>;

export const quickPayBodySchema = z.object({
  recipient: recipientSchema,
  amount: quickPayAmountSchema,
  walletId: payingWalletIdSchema,
  /** Becomes the entry's memo: short, and one line. */
  note: z.optional(singleLineText({ max: 140 })),
  /** Required at or above the step-up threshold (`stepUpThresholdMajor`). */
  stepUpCode: z.optional(stepUpCodeSchema),
  /** Instead of the code: one of the customer's passkeys signed this payment (ADR 046). */
  stepUpPasskey: z.optional(passkeyAssertionSchema),
});
export type QuickPayBody = z.infer<typeof quickPayBodySchema>;

export const transferSchema = z.object({
  entryId: z.string(),
  amountMinor: minorUnitsSchema,
  currency: z.string(),
  recipientMaskedName: z.string(),
  note: z.nullable(z.string()),
  createdAt: z.iso.datetime(),
});
export type Transfer = z.infer<typeof transferSchema>;

export const transferListQuerySchema = z.object({
  cursor: z.optional(z.uuid()),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(50)), 10),
});

/** One Quick Pay as either side sees it: sent by them, or received from someone. */
export const transferListItemSchema = z.extend(
  z.omit(transferSchema, { recipientMaskedName: true }),
  {
    direction: z.enum(['sent', 'received']),
    counterpartyMaskedName: z.string(),
  },
);
export type TransferListItem = z.infer<typeof transferListItemSchema>;

export const transferListSchema = z.object({
  items: z.array(transferListItemSchema),
  nextCursor: z.nullable(z.string()),
});
export type TransferList = z.infer<typeof transferListSchema>;
