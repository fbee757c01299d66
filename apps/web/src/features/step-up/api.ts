import {
  type PasskeyAssertion,
  passkeyOptionsResponseSchema,
} from '@coffer/contracts/passkey-assertion';
import { type StepUpChallenge, stepUpChallengeSchema } from '@coffer/contracts/step-up';
import type { StepUpChallengeBody } from '@coffer/contracts/step-up-payments';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client.ts';
import { signWithPasskey } from '../../lib/passkeys.ts';

/**
 * Asks for a step-up for one intended payment: the server first checks everything that
 * could refuse that payment (and refuses without sending a code), then answers with the
 * authenticator method or emails a new code.
 */
export function useStepUpChallenge() {
  return useMutation({
    mutationFn: (intended: StepUpChallengeBody): Promise<StepUpChallenge> =>
      apiRequest({
        method: 'POST',
        path: '/api/v1/step-up/challenges',
        body: intended,
        schema: stepUpChallengeSchema,
      }),
  });
}

/** A passkey's signature for this one payment: the server binds its challenge to it. */
export function useStepUpPasskey() {
  return useMutation({
    mutationFn: async (intended: StepUpChallengeBody): Promise<PasskeyAssertion> => {
      const { options } = await apiRequest({
        method: 'POST',
        path: '/api/v1/step-up/passkey-options',
        body: intended,
        schema: passkeyOptionsResponseSchema,
      });
      return signWithPasskey(options);
    },
  });
}
