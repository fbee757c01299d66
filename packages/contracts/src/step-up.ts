import { recipientSchema } from './recipient.ts';
import { singleLineText } from './text.ts';
import { z } from './zod.ts';

export const stepUpPurposes = ['transfer', 'payout', 'loan_repayment'] as const;
export type StepUpPurpose = (typeof stepUpPurposes)[number];

/** The typed amount of the payment a challenge is for; the server parses it as the payment would. */
const intendedAmountSchema = singleLineText({ max: 40 }).check(z.minLength(1, 'Enter an amount'));

/**
 * A challenge names the payment it is for, so that everything able to refuse that payment
 * without the code (frozen, level, daily limit, balance, recipient) refuses it before any
 * code is sent (PRODUCT.md "Withdraw flow"); the payment itself checks it all again.
 */
export const stepUpChallengeBodySchema = z.discriminatedUnion('purpose', [
  z.object({
    purpose: z.literal('transfer'),
    recipient: recipientSchema,
    amount: intendedAmountSchema,
  }),
  z.object({ purpose: z.literal('payout'), amount: intendedAmountSchema }),
  z.object({
    purpose: z.literal('loan_repayment'),
    loanId: z.uuid(),
    amount: intendedAmountSchema,
  }),
]);
export type StepUpChallengeBody = z.infer<typeof stepUpChallengeBodySchema>;

/**
 * How the customer proves it is them: the code of their own authenticator app, or a
 * 6-digit code just emailed to their own address (PRODUCT.md honesty rule 2).
 */
export const stepUpChallengeSchema = z.discriminatedUnion('method', [
  z.object({ method: z.literal('totp') }),
  z.object({ method: z.literal('email'), sentTo: z.string(), expiresAt: z.iso.datetime() }),
]);
export type StepUpChallenge = z.infer<typeof stepUpChallengeSchema>;

/** The field every money request that needs a step-up carries. */
export const stepUpCodeSchema = z
  .string()
  .check(z.trim(), z.regex(/^\d{6}$/, 'Enter the 6-digit code'));
