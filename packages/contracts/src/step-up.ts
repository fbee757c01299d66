import { z } from './zod.ts';

export const stepUpPurposes = [
  'transfer',
  'payout',
  'loan_repayment',
  'payee',
  'bulk_payment',
] as const;
export type StepUpPurpose = (typeof stepUpPurposes)[number];

/**
 * How the customer proves it is them: the code of their own authenticator app, or a
 * 6-digit code just emailed to their own address (PRODUCT.md honesty rule 2), or one of
 * their own passkeys.
 */
export const stepUpChallengeSchema = z.discriminatedUnion('method', [
  z.object({ method: z.literal('totp'), hasPasskeys: z.optional(z.boolean()) }),
  z.object({
    method: z.literal('email'),
    sentTo: z.string(),
    expiresAt: z.iso.datetime(),
    /** The customer has passkeys: one can answer instead of the code (ADR 046). */
    hasPasskeys: z.optional(z.boolean()),
  }),
]);
export type StepUpChallenge = z.infer<typeof stepUpChallengeSchema>;

/** The field every money request that needs a step-up carries. */
export const stepUpCodeSchema = z
  .string()
  .check(z.trim(), z.regex(/^\d{6}$/, 'Enter the 6-digit code'));
