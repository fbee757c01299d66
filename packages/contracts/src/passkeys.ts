import {
  authenticatorAttachmentSchema,
  base64UrlSchema,
  clientExtensionResultsSchema,
  credentialIdSchema,
  passkeyAssertionSchema,
  passkeyOptionsResponseSchema,
  transportSchema,
} from './passkey-assertion.ts';
import { passwordText, singleLineText } from './text.ts';
import { z } from './zod.ts';

/**
 * Passkeys (WebAuthn, issue #34 item 2, ADR 046). The browser's answers are the JSON that
 * `@simplewebauthn/browser` makes of a credential; the server checks them with
 * `@simplewebauthn/server`. These schemas only bound their shape and size.
 */

/** A new passkey as the browser answers `navigator.credentials.create`. */
export const passkeyRegistrationResponseSchema = z.object({
  id: credentialIdSchema,
  rawId: credentialIdSchema,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64UrlSchema,
    attestationObject: base64UrlSchema,
    authenticatorData: z.optional(base64UrlSchema),
    transports: z.optional(z.array(transportSchema).check(z.maxLength(10))),
    publicKeyAlgorithm: z.optional(z.number()),
    publicKey: z.optional(base64UrlSchema),
  }),
  authenticatorAttachment: authenticatorAttachmentSchema,
  clientExtensionResults: clientExtensionResultsSchema,
});

export const passkeyNameLengthMax = 60;

export const passkeyNameSchema = singleLineText({ max: passkeyNameLengthMax }).check(
  z.minLength(1, 'Give the passkey a name'),
);

const currentPasswordSchema = passwordText({ max: 128 }).check(
  z.minLength(1, 'Enter your current password'),
);

/** Adding or removing a passkey asks for the password again, as other security changes do. */
export const passkeyRegistrationOptionsBodySchema = z.object({
  currentPassword: currentPasswordSchema,
});

export const passkeyRegistrationOptionsResponseSchema = passkeyOptionsResponseSchema;

export const passkeyRegistrationBodySchema = z.object({
  name: passkeyNameSchema,
  response: passkeyRegistrationResponseSchema,
});

export const passkeyRenameBodySchema = z.object({ name: passkeyNameSchema });

export const passkeyRemoveBodySchema = z.object({ currentPassword: currentPasswordSchema });

export const passkeySchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.nullable(z.iso.datetime()),
});
export type Passkey = z.infer<typeof passkeySchema>;

export const passkeyListSchema = z.object({ passkeys: z.array(passkeySchema) });
export type PasskeyList = z.infer<typeof passkeyListSchema>;

/** "Sign in with a passkey": options for any passkey of this site (discoverable). */
export const passkeySignInOptionsResponseSchema = passkeyOptionsResponseSchema;

export const passkeySignInBodySchema = z.object({ response: passkeyAssertionSchema });

/** The login challenge of a password sign-in, answered by a passkey instead of a code. */
const loginChallengeTokenSchema = singleLineText({ max: 100 }).check(z.minLength(1));

export const passkeySecondFactorOptionsBodySchema = z.object({
  challengeToken: loginChallengeTokenSchema,
});

export const passkeySecondFactorBodySchema = z.object({
  challengeToken: loginChallengeTokenSchema,
  response: passkeyAssertionSchema,
});

/** Options for a step-up answered with a passkey, bound to the payment it confirms. */
export const stepUpPasskeyOptionsResponseSchema = passkeyOptionsResponseSchema;

export {
  type PasskeyAssertion,
  type PasskeyOptions,
  passkeyAssertionSchema,
  passkeyOptionsSchema,
} from './passkey-assertion.ts';

/** The profile's "Add a passkey" form: its name, and the password that opens the options. */
export const passkeyAddFormSchema = z.object({
  name: passkeyNameSchema,
  currentPassword: currentPasswordSchema,
});
