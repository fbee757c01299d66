import { forgotPasswordBodySchema } from '@coffer/contracts/auth';
import { errorCodes } from '@coffer/contracts/errors';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Anchor, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { MailCheck } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { BusyButton } from '../../../components/busy-button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { contractResolver, showApiErrorOnForm } from '../../../lib/forms.ts';
import { useInputBeforeStart } from '../../../lib/input-before-start.ts';
import { showSuccessToast, toastDurationsMs } from '../../../lib/toasts.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { requestPasswordReset } from '../api.ts';
import { AuthCard } from '../components/auth-card.tsx';

export function ForgotPasswordPage() {
  const { t } = useLingui();
  usePageTitle(t`Forgot password`);
  const [formError, setFormError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm({
    mode: 'controlled',
    initialValues: { email: '' },
    validate: contractResolver(forgotPasswordBodySchema),
  });
  const keepInputBeforeStart = useInputBeforeStart(form);
  const reset = useMutation({
    mutationFn: requestPasswordReset,
    onSuccess: (result, body) => {
      showSuccessToast(result.message, toastDurationsMs.passwordReset);
      setSentTo(body.email);
    },
    onError: (error) => {
      setFormError(
        showApiErrorOnForm(form, error, { otherFailureMessage: errorCodes.internal.message }),
      );
    },
  });

  return (
    <AuthCard
      title={t`Forgot password`}
      description={t`Enter the email address of your account and we will send you a link to choose a new password.`}
    >
      <form
        noValidate
        ref={keepInputBeforeStart}
        onSubmit={form.onSubmit((values) => {
          setFormError(null);
          setSentTo(null);
          reset.mutate(forgotPasswordBodySchema.parse(values));
        })}
      >
        <Stack gap="md">
          <FormAlert message={formError} />
          {sentTo && (
            <Alert color="green" variant="light" icon={<MailCheck size={18} aria-hidden />}>
              <Trans>
                If an account uses <bdi>{sentTo}</bdi>, a reset link is on its way. It works once,
                for 30 minutes.
              </Trans>
            </Alert>
          )}
          <TextInput
            label={t`Email`}
            type="email"
            autoComplete="email"
            {...form.getInputProps('email')}
          />
          <BusyButton isBusy={reset.isPending} busyLabel={t`Sending...`} fullWidth>
            <Trans>Reset Password</Trans>
          </BusyButton>
          <Text size="sm" ta="center">
            <Trans>
              Remembered it?{' '}
              <Anchor component={Link} to="/signin">
                Back to Login
              </Anchor>
            </Trans>
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}
