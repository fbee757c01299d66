import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Anchor, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { MailWarning } from 'lucide-react';
import { errorMessage } from '../../lib/api-client.ts';
import { resendVerificationEmail, useMe } from '../../lib/session.ts';
import { showErrorToast, showSuccessToast } from '../../lib/toasts.ts';

/** Reminds a signed-in user whose address is not verified yet, with a way to get a new link. */
export function VerifyEmailBanner() {
  const me = useMe();
  const { t } = useLingui();
  const email = me?.email;
  const resend = useMutation({
    mutationFn: resendVerificationEmail,
    onSuccess: () =>
      showSuccessToast(
        email
          ? t`We sent a new verification link to ${email}.`
          : t`We sent you a new verification link.`,
      ),
    onError: (error) => showErrorToast(errorMessage(error)),
  });
  if (!me || me.isEmailVerified) return null;
  const address = me.email;
  return (
    <Alert
      color="yellow"
      variant="light"
      mb="lg"
      icon={<MailWarning size={18} aria-hidden />}
      aria-label={t`Email not verified`}
    >
      <Text size="sm">
        <Trans>
          Please verify your email address. We sent a link to <strong>{address}</strong>; follow it
          to confirm the address.
        </Trans>{' '}
        <Anchor
          component="button"
          type="button"
          size="sm"
          fw={600}
          c="inherit"
          underline="always"
          disabled={resend.isPending}
          onClick={() => resend.mutate()}
        >
          {resend.isPending ? t`Sending...` : t`Resend`}
        </Anchor>
      </Text>
    </Alert>
  );
}
