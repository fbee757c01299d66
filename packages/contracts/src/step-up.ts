import { z } from 'zod';

export const stepUpPurposes = ['transfer', 'payout'] as const;
export type StepUpPurpose = (typeof stepUpPurposes)[number];

export const stepUpChallengeBodySchema = z.object({ purpose: z.enum(stepUpPurposes) });

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
  .trim()
  .regex(/^\d{6}$/, 'Enter the 6-digit code');
