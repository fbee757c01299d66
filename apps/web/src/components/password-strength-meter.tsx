import type { PasswordStrength } from '@coffer/contracts/password-strength';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Progress, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { loadPasswordStrengthEstimator } from '../lib/password-strength.ts';

const scoreLabels = [msg`Very weak`, msg`Weak`, msg`Fair`, msg`Strong`, msg`Very strong`] as const;
const scoreColors = ['red', 'orange', 'yellow', 'teal', 'green'] as const;
const estimateDelayMs = 120;

/**
 * How guessable the new password is, as a bar and a word, with zxcvbn's hint. The server
 * runs the same estimate and refuses a weak password, so this is advice, not the check.
 * Shown once the person types a password.
 */
export function PasswordStrengthMeter({
  password,
  personalWords,
}: {
  password: string;
  /** The person's own details (name, email), which make a password guessable. */
  personalWords: string[];
}) {
  const [strength, setStrength] = useState<PasswordStrength | null>(null);
  const [debouncedPassword] = useDebouncedValue(password, estimateDelayMs);
  const personalWordsKey = personalWords.join('\n');
  const { t, i18n } = useLingui();

  useEffect(() => {
    // The estimator and its dictionaries (about 700 KB compressed) load with the first
    // character typed, not with the page: a page with an empty password field stays light.
    if (!debouncedPassword) {
      setStrength(null);
      return;
    }
    let isCurrent = true;
    loadPasswordStrengthEstimator().then(
      (estimate) => {
        if (isCurrent) setStrength(estimate(debouncedPassword, personalWordsKey.split('\n')));
      },
      () => {
        if (isCurrent) setStrength(null);
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [debouncedPassword, personalWordsKey]);

  if (!password || !strength) return null;
  const label = i18n._(scoreLabels[strength.score]);
  return (
    <Stack gap={4} aria-live="polite">
      <Progress
        value={(strength.score + 1) * 20}
        color={scoreColors[strength.score]}
        size="sm"
        aria-label={t`Password strength: ${label}`}
      />
      <Text size="sm">
        {strength.isStrongEnough ? (
          <Trans>
            Strength: <strong>{label}</strong>
          </Trans>
        ) : (
          <Trans>
            Strength: <strong>{label}</strong> — choose a stronger password.
          </Trans>
        )}
      </Text>
      {strength.suggestion && !strength.isStrongEnough && (
        <Text size="sm" c="dimmed">
          {strength.suggestion}
        </Text>
      )}
    </Stack>
  );
}
