import { newPasswordSchema } from '@coffer/contracts/auth';
import { errorCodes } from '@coffer/contracts/errors';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Button, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod/mini';
import { BusyButton } from '../../../components/busy-button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { PasswordField } from '../../../components/password-field.tsx';
import { PasswordStrengthMeter } from '../../../components/password-strength-meter.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import {
  contractResolver,
  passwordsDoNotMatchMessage,
  showApiErrorOnForm,
} from '../../../lib/forms.ts';
import { setSignedInUser } from '../../../lib/session.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { resetPassword } from '../api.ts';
import { AuthCard } from '../components/auth-card.tsx';

const resetFormSchema = z
  .object({ password: newPasswordSchema, confirmPassword: z.string() })
  .check(
    z.refine((values) => values.password === values.confirmPassword, {
      path: ['confirmPassword'],
      message: passwordsDoNotMatchMessage,
    }),
  );

function ExpiredLink({ message }: { message: string }) {
  return (
    <Stack gap="md">
      <FormAlert message={message} />
      <Button component={Link} to="/forgot-password">
        <Trans>Ask for a new link</Trans>
      </Button>
    </Stack>
  );
}

export function ResetPasswordPage() {
  const { t } = useLingui();
  const pageTitle = t`Choose a new password`;
  usePageTitle(pageTitle);
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [formError, setFormError] = useState<string | null>(null);
  const [expiredMessage, setExpiredMessage] = useState<string | null>(null);
  const form = useForm({
    mode: 'controlled',
    initialValues: { password: '', confirmPassword: '' },
    validate: contractResolver(resetFormSchema),
  });
  const reset = useMutation({
    mutationFn: resetPassword,
    onSuccess: async () => {
      showSuccessToast(t`Your password has been changed. Please log in with your new password.`);
      // A reset ends every session, this browser's too.
      setSignedInUser(queryClient, null);
      await navigate('/signin', { replace: true });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.code === 'link_expired') {
        setExpiredMessage(error.message);
        return;
      }
      setFormError(
        showApiErrorOnForm(form, error, {
          otherFailureMessage: errorCodes.internal.message,
          fieldsByCode: { password_too_weak: 'password' },
        }),
      );
    },
  });

  if (!token) {
    return (
      <AuthCard title={pageTitle}>
        <ExpiredLink
          message={t`This link is incomplete. Please open the link from the email again, or ask for a new one.`}
        />
      </AuthCard>
    );
  }
  if (expiredMessage) {
    return (
      <AuthCard title={pageTitle}>
        <ExpiredLink message={expiredMessage} />
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title={pageTitle}
      description={t`Pick a password you do not use anywhere else. Every device signed in to your account will be signed out.`}
    >
      <form
        noValidate
        onSubmit={form.onSubmit((values) => {
          setFormError(null);
          reset.mutate({ token, password: values.password });
        })}
      >
        <Stack gap="md">
          <FormAlert message={formError} />
          <Stack gap="xs">
            <PasswordField
              label={t`New password`}
              autoComplete="new-password"
              {...form.getInputProps('password')}
            />
            <PasswordStrengthMeter password={form.values.password} personalWords={[]} />
          </Stack>
          <PasswordField
            label={t`Confirm new password`}
            autoComplete="new-password"
            {...form.getInputProps('confirmPassword')}
          />
          <BusyButton isBusy={reset.isPending} busyLabel={t`Saving...`} fullWidth>
            <Trans>Set new password</Trans>
          </BusyButton>
          <Text size="sm" ta="center">
            <Anchor component={Link} to="/signin">
              <Trans>Back to Login</Trans>
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}
