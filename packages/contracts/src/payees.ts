import {
  billCategories,
  billCategoryLabels,
  billerReferenceSchema,
  selectBillMessage,
} from './bills.ts';
import {
  describePayoutDestination,
  payoutDestinationBodySchema,
  payoutDestinationSchema,
} from './payouts.ts';
import { recipientSchema } from './recipient.ts';
import { stepUpCodeSchema } from './step-up.ts';
import { singleLineText } from './text.ts';
import { z } from './zod.ts';

/** Issue #32: a customer keeps at most this many saved payees. */
export const payeesMax = 200;
export const payeeNicknameLengthMax = 40;

export const payeeKinds = ['coffer', 'bill', 'payout'] as const;
export type PayeeKind = (typeof payeeKinds)[number];

export const payeeKindLabels: Record<PayeeKind, string> = {
  coffer: 'Coffer customer',
  bill: 'Bill',
  payout: 'Withdrawal destination',
};

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
});
export type AddPayeeBody = z.infer<typeof addPayeeBodySchema>;

export const renamePayeeBodySchema = z.object({ nickname: payeeNicknameSchema });
export type RenamePayeeBody = z.infer<typeof renamePayeeBodySchema>;

export const payeeIdParamsSchema = z.object({ payeeId: z.uuid() });

/** A saved target as the API answers it: already checked, so plain fields (no transforms). */
const savedPayeeTargetSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('coffer'), recipient: z.string() }),
  z.object({
    kind: z.literal('bill'),
    category: z.enum(billCategories),
    billerReference: z.string(),
  }),
  z.object({ kind: z.literal('payout'), destination: payoutDestinationSchema }),
]);

export const payeeSchema = z.object({
  id: z.string(),
  nickname: z.string(),
  target: savedPayeeTargetSchema,
  createdAt: z.iso.datetime(),
});
export type Payee = z.infer<typeof payeeSchema>;

export const payeeListSchema = z.object({ items: z.array(payeeSchema) });
export type PayeeList = z.infer<typeof payeeListSchema>;

/** "Coffer account 1234567890", "Electricity bill, customer number 12345", a destination. */
export function describePayeeTarget(target: PayeeTarget | Payee['target']): string {
  switch (target.kind) {
    case 'coffer':
      return `Coffer customer ${target.recipient}`;
    case 'bill':
      return `${billCategoryLabels[target.category]} bill, customer number ${target.billerReference}`;
    case 'payout':
      return describePayoutDestination(target.destination);
  }
}
