import type { PasskeyAssertion } from '@coffer/contracts/passkey-assertion';
import type { StepUpChallengeBody } from '@coffer/contracts/step-up-payments';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Button, Loader, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { ApiError, errorMessage } from '../../lib/api-client.ts';
import { useCanUsePasskeys } from '../../lib/passkeys.ts';
import { useStepUpChallenge, useStepUpPasskey } from './api.ts';

/** Challenge failures about the code itself (shown at the field); others refuse the payment. */
const codeErrorCodes = new Set(['rate_limited', 'too_many_attempts', 'network_error']);

function isCodeError(error: unknown): boolean {
  if (!error) return false;
  return !(error instanceof ApiError) || error.status >= 500 || codeErrorCodes.has(error.code);
}

/**
 * The step-up code input of a confirmation dialog. Mounting it starts the challenge for
 * the intended payment: the server refuses it there and then if it cannot go through
 * (`onRefused`, before any code is sent); otherwise, with an authenticator the customer
 * types its code; without one a code is emailed to them (PRODUCT.md: 10 minutes, 5
 * tries) and they can ask for another.
 */
export function StepUpCodeField({
  intended,
  value,
  onChange,
  onRefused,
  error,
  onPasskey,
}: {
  intended: StepUpChallengeBody;
  value: string;
  onChange: (code: string) => void;
  /** The payment was refused before any code was sent (frozen, level, limit, balance...). */
  onRefused: (error: ApiError) => void;
  error?: string | undefined;
  /**
   * The customer confirmed with a passkey instead of a code: the form sends the payment
   * with its answer. Offered when they have one and the form takes it.
   */
  onPasskey?: (answer: PasskeyAssertion) => void;
}) {
  const { t } = useLingui();
  const challenge = useStepUpChallenge();
  const passkey = useStepUpPasskey();
  const canUsePasskeys = useCanUsePasskeys();
  const { mutate } = challenge;
  // The payment does not change while the field is shown: asked once, on mount.
  const first = useRef({ intended, onRefused });
  const ask = useRef(() =>
    mutate(first.current.intended, {
      onError: (failure) => {
        if (
          failure instanceof ApiError &&
          !codeErrorCodes.has(failure.code) &&
          failure.status < 500
        ) {
          first.current.onRefused(failure);
        }
      },
    }),
  );
  useEffect(() => ask.current(), []);

  const sentTo = challenge.data?.method === 'email' ? challenge.data.sentTo : '';
  const description =
    challenge.data?.method === 'totp'
      ? t`Enter the 6-digit code from your authenticator app.`
      : challenge.data?.method === 'email'
        ? t`We emailed a 6-digit code to ${sentTo}. It works for 10 minutes.`
        : undefined;

  return (
    <Stack gap={4}>
      <TextInput
        label={t`Verification code`}
        description={description}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        error={
          error ??
          (passkey.error ? errorMessage(passkey.error) : undefined) ??
          (isCodeError(challenge.error) ? errorMessage(challenge.error) : undefined)
        }
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        rightSection={
          challenge.isPending ? <Loader size="xs" aria-label={t`Sending code`} /> : null
        }
        data-autofocus
        required
      />
      {onPasskey && challenge.data?.hasPasskeys && canUsePasskeys && (
        <Button
          variant="default"
          size="sm"
          loading={passkey.isPending}
          onClick={() => passkey.mutate(first.current.intended, { onSuccess: onPasskey })}
        >
          <Trans>Use a passkey instead</Trans>
        </Button>
      )}
      {challenge.data?.method === 'email' && (
        <Text size="sm">
          <Trans>
            Did not get it?{' '}
            <Anchor
              component="button"
              type="button"
              onClick={() => ask.current()}
              disabled={challenge.isPending}
            >
              Send a new code
            </Anchor>
          </Trans>
        </Text>
      )}
    </Stack>
  );
}
