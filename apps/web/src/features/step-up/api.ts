import {
  type StepUpChallenge,
  type StepUpPurpose,
  stepUpChallengeSchema,
} from '@coffer/contracts/step-up';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client.ts';

/** Asks for a step-up: the authenticator's code, or a new code emailed to the customer. */
export function useStepUpChallenge() {
  return useMutation({
    mutationFn: (purpose: StepUpPurpose): Promise<StepUpChallenge> =>
      apiRequest({
        method: 'POST',
        path: '/api/v1/step-up/challenges',
        body: { purpose },
        schema: stepUpChallengeSchema,
      }),
  });
}
