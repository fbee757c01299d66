import type { PasskeyAssertion, PasskeyOptions } from '@coffer/contracts/passkey-assertion';
import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useSyncExternalStore } from 'react';
import { ApiError } from './api-client.ts';

/**
 * The browser's side of passkeys (ADR 046): `@simplewebauthn/browser` turns the server's
 * options into a WebAuthn call and the credential into JSON. Loaded when a passkey is
 * used, not with the page: most visits never touch one.
 */
const loadBrowserLibrary = () => import('@simplewebauthn/browser');

const canUsePasskeys = () =>
  typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
const unchanging = () => () => {};

/**
 * Whether this browser can use passkeys at all (the buttons are hidden where it cannot).
 * False while a server-rendered page hydrates, as on the server, then the browser's own
 * answer: the first render matches the server's HTML.
 */
export function useCanUsePasskeys(): boolean {
  return useSyncExternalStore(unchanging, canUsePasskeys, () => false);
}

/** A cancelled or failed ceremony, in the form's words, where the API's refusals go. */
function passkeyNotUsed(cause: unknown): ApiError {
  return new ApiError({
    status: 400,
    code: 'passkey_refused',
    message: i18n._(msg`The passkey was not used. Please try again, or use another way.`),
    cause,
  });
}

/** Asks the authenticator to sign the server's challenge. */
export async function signWithPasskey(options: PasskeyOptions): Promise<PasskeyAssertion> {
  const { startAuthentication } = await loadBrowserLibrary();
  try {
    const answer = await startAuthentication({ optionsJSON: options as never });
    return answer as PasskeyAssertion;
  } catch (error) {
    throw passkeyNotUsed(error);
  }
}

/** Asks the authenticator to make a new passkey for the server's options. */
export async function createPasskey(options: PasskeyOptions) {
  const { startRegistration } = await loadBrowserLibrary();
  try {
    return await startRegistration({ optionsJSON: options as never });
  } catch (error) {
    throw passkeyNotUsed(error);
  }
}
