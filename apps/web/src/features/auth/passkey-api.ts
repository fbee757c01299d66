import { passkeyOptionsResponseSchema } from '@coffer/contracts/passkey-assertion';
import { apiRequest } from '../../lib/api-client.ts';
import { signWithPasskey } from '../../lib/passkeys.ts';
import { secondFactorResponseSchema } from './api.ts';

/** "Sign in with a passkey": options for any passkey of this site, then its signature. */
export async function signInWithPasskey() {
  const { options } = await apiRequest({
    method: 'POST',
    path: '/api/v1/auth/passkey/options',
    schema: passkeyOptionsResponseSchema,
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
    schema: passkeyOptionsResponseSchema,
  });
  const response = await signWithPasskey(options);
  return apiRequest({
    method: 'POST',
    path: '/api/v1/auth/login/second-factor/passkey',
    body: { challengeToken, response },
    schema: secondFactorResponseSchema,
  });
}
