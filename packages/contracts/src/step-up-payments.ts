import { payeeTargetSchema } from './payees.ts';
import { payingWalletIdSchema } from './paying-wallet.ts';
import { payoutDestinationBodySchema } from './payouts.ts';
import { recipientSchema } from './recipient.ts';
import { singleLineText } from './text.ts';
import { z } from './zod.ts';

/** The typed amount of the payment a challenge is for; the server parses it as the payment would. */
const intendedAmountSchema = singleLineText({ max: 40 }).check(z.minLength(1, 'Enter an amount'));

/**
 * A challenge names the payment it is for, so that everything able to refuse that payment
 * without the code (frozen, level, daily limit, balance, recipient) refuses it before any
 * code is sent (PRODUCT.md "Withdraw flow"), and an emailed code names, and works only for,
 * that amount and payee; the payment itself checks it all again. Its own file so that pages
 * which only read a challenge's answer (`step-up.ts`) do not load the payout contract.
 */
export const stepUpChallengeBodySchema = z.discriminatedUnion('purpose', [
  z.object({
    purpose: z.literal('transfer'),
    recipient: recipientSchema,
    amount: intendedAmountSchema,
    walletId: payingWalletIdSchema,
  }),
  z.object({
    purpose: z.literal('payout'),
    amount: intendedAmountSchema,
    walletId: payingWalletIdSchema,
    destination: payoutDestinationBodySchema,
  }),
  z.object({
    purpose: z.literal('loan_repayment'),
    loanId: z.uuid(),
    amount: intendedAmountSchema,
  }),
  // A new payee: the code confirms what it pays (a new payee is how a taken-over account
  // moves money out), not its nickname.
  z.object({ purpose: z.literal('payee'), target: payeeTargetSchema }),
  // A bulk payment file: the code confirms the file's total, as checked at upload.
  z.object({ purpose: z.literal('bulk_payment'), bulkPaymentId: z.uuid() }),
]);
export type StepUpChallengeBody = z.infer<typeof stepUpChallengeBodySchema>;
