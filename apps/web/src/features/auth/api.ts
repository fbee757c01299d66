import {
  forgotPasswordResponseSchema,
  loginResponseSchema,
  meSchema,
} from '@coffer/contracts/auth';
import { passkeySignInOptionsResponseSchema } from '@coffer/contracts/passkeys';
import type { SignupBody } from '@coffer/contracts/signup';
import { z } from 'zod/mini';
import { apiRequest, noContentSchema } from '../../lib/api-client.ts';
import { signWithPasskey } from '../../lib/passkeys.ts';

const signedInUserSchema = z.object({ user: meSchema });
const secondFactorResponseSchema = z.object({ status: z.literal('signed_in'), user: meSchema });

export function signUp(body: SignupBody) {
  return apiRequest({
    method: 'POST',
    path: '/api/v1/auth/signup',
    body,
    schema: signedInUserSchema,
  });
}

export function logIn(body: { email: string; password: string }) {
  return apiRequest({
    method: 'POST',
    path: '/api/v1/auth/login',
    body,
    schema: loginResponseSchema,
  });
}

export function submitSecondFactor(body: { challengeToken: string; code: string }) {
  return apiRequest({
    method: 'POST',
    path: '/api/v1/auth/login/second-factor',
    body,
    schema: secondFactorResponseSchema,
  });
}

export function requestPasswordReset(body: { email: string }) {
  return apiRequest({
    method: 'POST',
    path: '/api/v1/auth/forgot-password',
    body,
    schema: forgotPasswordResponseSchema,
  });
}

export function resetPassword(body: { token: string; password: string }) {
  return apiRequest({
    method: 'POST',
    path: '/api/v1/auth/reset-password',
    body,
    schema: noContentSchema,
  });
}

export function verifyEmail(token: string) {
  return apiRequest({
    method: 'POST',
    path: '/api/v1/auth/verify-email',
    body: { token },
    schema: signedInUserSchema,
  });
}

/** "Sign in with a passkey": options for any passkey of this site, then its signature. */
export async function signInWithPasskey() {
  const { options } = await apiRequest({
    method: 'POST',
    path: '/api/v1/auth/passkey/options',
    schema: passkeySignInOptionsResponseSchema,
  });
  const response = await signWithPasskey(options);
  return apiRequest({
    method: 'POST',
    path: '/api/v1/auth/passkey/sign-in',
    body: { response },
    schema: secondFactorResponseSchema,
  });
}

/** The second step of a password sign-in, answered by one of the account's passkeys. */
export async function submitSecondFactorWithPasskey(challengeToken: string) {
  const { options } = await apiRequest({
    method: 'POST',
    path: '/api/v1/auth/login/second-factor/passkey-options',
    body: { challengeToken },
    schema: passkeySignInOptionsResponseSchema,
  });
  const response = await signWithPasskey(options);
  return apiRequest({
    method: 'POST',
    path: '/api/v1/auth/login/second-factor/passkey',
    body: { challengeToken, response },
    schema: secondFactorResponseSchema,
  });
}
