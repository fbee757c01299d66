import type { StepUpPurpose } from '@coffer/contracts/step-up';
import { Anchor, Loader, Stack, Text, TextInput } from '@mantine/core';
import { useEffect } from 'react';
import { errorMessage } from '../../lib/api-client.ts';
import { useStepUpChallenge } from './api.ts';

/**
 * The step-up code input of a confirmation dialog. Mounting it starts the challenge: with
 * an authenticator the customer types its code; without one a code is emailed to them
 * (PRODUCT.md: 10 minutes, 5 tries) and they can ask for another.
 */
export function StepUpCodeField({
  purpose,
  value,
  onChange,
  error,
}: {
  purpose: StepUpPurpose;
  value: string;
  onChange: (code: string) => void;
  error?: string | undefined;
}) {
  const challenge = useStepUpChallenge();
  const { mutate } = challenge;
  useEffect(() => mutate(purpose), [mutate, purpose]);

  const description =
    challenge.data?.method === 'totp'
      ? 'Enter the 6-digit code from your authenticator app.'
      : challenge.data?.method === 'email'
        ? `We emailed a 6-digit code to ${challenge.data.sentTo}. It works for 10 minutes.`
        : undefined;

  return (
    <Stack gap={4}>
      <TextInput
        label="Verification code"
        description={description}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        error={error ?? (challenge.isError ? errorMessage(challenge.error) : undefined)}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        rightSection={challenge.isPending ? <Loader size="xs" aria-label="Sending code" /> : null}
        data-autofocus
        required
      />
      {challenge.data?.method === 'email' && (
        <Text size="sm">
          Did not get it?{' '}
          <Anchor
            component="button"
            type="button"
            onClick={() => mutate(purpose)}
            disabled={challenge.isPending}
          >
            Send a new code
          </Anchor>
        </Text>
      )}
    </Stack>
  );
}
