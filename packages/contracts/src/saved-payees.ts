import { billCategories, billCategoryLabels } from './bills.ts';
import { describePayoutDestination, payoutDestinationSchema } from './payout-destinations.ts';
import { z } from './zod.ts';

// Saved payees as the API answers them, and how they read: light enough for the pickers
// above Quick Pay, Pay Bills and Withdraw (payees.ts has the schemas of a new payee).

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
export function describePayeeTarget(target: Payee['target']): string {
  switch (target.kind) {
    case 'coffer':
      return `Coffer customer ${target.recipient}`;
    case 'bill':
      return `${billCategoryLabels[target.category]} bill, customer number ${target.billerReference}`;
    case 'payout':
      return describePayoutDestination(target.destination);
  }
}
