import { billCategories, billerReferenceSchema, selectBillMessage } from './bills.ts';
import { passkeyAssertionSchema } from './passkey-assertion.ts';
import { payoutDestinationBodySchema } from './payouts.ts';
import { recipientSchema } from './recipient.ts';
import { payeeNicknameLengthMax } from './saved-payees.ts';
import { stepUpCodeSchema } from './step-up.ts';
import { singleLineText } from './text.ts';
import { z } from './zod.ts';

export * from './saved-payees.ts';

/** The name the customer gives a payee: trimmed, one line, 1 to 40 characters. */
export const payeeNicknameSchema = singleLineText({
  max: payeeNicknameLengthMax,
  missing: 'Enter a nickname',
  tooLong: `Use at most ${payeeNicknameLengthMax} characters`,
}).check(z.minLength(1, 'Enter a nickname'));

/**
 * What a payee pays, in the very fields (and schemas) of the form it fills: Quick Pay's
 * recipient, Pay Bills' biller and reference, or the withdrawal form's destination.
 */
export const payeeTargetSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('coffer'), recipient: recipientSchema }),
  z.object({
    kind: z.literal('bill'),
    category: z.enum(billCategories, { error: selectBillMessage }),
    billerReference: billerReferenceSchema,
  }),
  z.object({ kind: z.literal('payout'), destination: payoutDestinationBodySchema }),
]);
export type PayeeTarget = z.infer<typeof payeeTargetSchema>;

export const addPayeeBodySchema = z.object({
  nickname: payeeNicknameSchema,
  target: payeeTargetSchema,
  /** Every new payee needs one; the server answers `step_up_required` without. */
  stepUpCode: z.optional(stepUpCodeSchema),
  /** Instead of the code: one of the customer's passkeys signed this payment (ADR 046). */
  stepUpPasskey: z.optional(passkeyAssertionSchema),
});
export type AddPayeeBody = z.infer<typeof addPayeeBodySchema>;

export const renamePayeeBodySchema = z.object({ nickname: payeeNicknameSchema });
export type RenamePayeeBody = z.infer<typeof renamePayeeBodySchema>;

export const payeeIdParamsSchema = z.object({ payeeId: z.uuid() });
