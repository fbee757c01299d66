import { z } from './zod.ts';

// The browser's WebAuthn answers, as `@simplewebauthn/browser` makes JSON of them: only
// their shape and size; the server checks them with `@simplewebauthn/server` (ADR 046).
// Its own file: every money form and the sign-in page carry a passkey's answer, and load
// no more than this.

/** A base64url field of a WebAuthn answer: 16 KB is far above any real authenticator's. */
export const base64UrlSchema = z.string().check(z.maxLength(16_384), z.regex(/^[A-Za-z0-9_-]*$/));

export const credentialIdSchema = base64UrlSchema.check(z.minLength(1), z.maxLength(1_024));

export const transportSchema = z.string().check(z.maxLength(20));

export const authenticatorAttachmentSchema = z.optional(z.enum(['platform', 'cross-platform']));

export const clientExtensionResultsSchema = z.record(z.string(), z.unknown());

/** A passkey's signature as the browser answers `navigator.credentials.get`. */
export const passkeyAssertionSchema = z.object({
  id: credentialIdSchema,
  rawId: credentialIdSchema,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64UrlSchema,
    authenticatorData: base64UrlSchema,
    signature: base64UrlSchema,
    userHandle: z.optional(base64UrlSchema),
  }),
  authenticatorAttachment: authenticatorAttachmentSchema,
  clientExtensionResults: clientExtensionResultsSchema,
});
export type PasskeyAssertion = z.infer<typeof passkeyAssertionSchema>;

/**
 * The options the browser passes on to the authenticator, as the server made them: kept
 * whole (a loose object), the web app hands them to `@simplewebauthn/browser` unread.
 */
export const passkeyOptionsSchema = z.looseObject({ challenge: z.string() });
export type PasskeyOptions = z.infer<typeof passkeyOptionsSchema>;

/** The server's answer wherever it asks the browser for a passkey. */
export const passkeyOptionsResponseSchema = z.object({ options: passkeyOptionsSchema });
