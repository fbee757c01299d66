import { singleLineText } from './text.ts';
import { z } from './zod.ts';

/** Long enough for a real document; the site file is the operator's, read once at start. */
const documentLengthMax = 100_000;

/**
 * The operator's terms and privacy notice (the site file's `terms`). Customers accept a
 * version at sign-up; a new version asks each of them again before anything else.
 */
export const termsSchema = z.object({
  /** Names the text, e.g. "2026-11": any change the customers must accept gets a new one. */
  version: singleLineText({ max: 40 }).check(z.minLength(1)),
  termsOfService: z.string().check(z.minLength(1), z.maxLength(documentLengthMax)),
  privacyNotice: z.string().check(z.minLength(1), z.maxLength(documentLengthMax)),
});
export type Terms = z.infer<typeof termsSchema>;

/** GET /public/terms: null where the operator published none (nothing is asked then). */
export const termsResponseSchema = z.object({ terms: z.nullable(termsSchema) });

/** The version a customer read: accepting an older one than the current is refused. */
export const acceptedTermsVersionSchema = singleLineText({ max: 40 });

export const acceptTermsBodySchema = z.object({
  version: acceptedTermsVersionSchema.check(z.minLength(1, 'Please accept the terms')),
});

export const acceptTermsMessage = 'Please accept the terms and privacy notice';
export const termsChangedMessage =
  'The terms changed while you were reading them. Please read and accept the new version.';

/** What staff see on a customer's page, and the customer's own answer after accepting. */
export const termsAcceptanceSchema = z.object({
  version: z.string(),
  acceptedAt: z.string(),
});
export type TermsAcceptance = z.infer<typeof termsAcceptanceSchema>;
