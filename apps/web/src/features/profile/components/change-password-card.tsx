import { changePasswordBodySchema } from '@coffer/contracts/profile';
import { Trans, useLingui } from '@lingui/react/macro';
import { Card, Checkbox, Group, Stack, Text, Title } from '@mantine/core';
import { z } from 'zod/mini';
import { BusyButton } from '../../../components/busy-button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { PasswordField } from '../../../components/password-field.tsx';
import { PasswordStrengthMeter } from '../../../components/password-strength-meter.tsx';
import { passwordsDoNotMatchMessage, useContractForm } from '../../../lib/forms.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { useChangePassword } from '../api.ts';

const changePasswordFormSchema = z
  .extend(changePasswordBodySchema, { confirmPassword: z.string() })
  .check(
    z.refine((values) => values.newPassword === values.confirmPassword, {
      path: ['confirmPassword'],
      message: passwordsDoNotMatchMessage,
    }),
  );

const initialValues = {
  currentPassword: '',
  newPassword: '',
  confirmPassword: '',
  endOtherSessions: true,
};

export function ChangePasswordCard({ personalWords }: { personalWords: string[] }) {
  const { t } = useLingui();
  const { form, formError, onSubmit, isPending } = useContractForm({
    schema: changePasswordFormSchema,
    initialValues,
    mutation: useChangePassword(),
    toBody: (values) => ({
      currentPassword: values.currentPassword,
      newPassword: values.newPassword,
      endOtherSessions: values.endOtherSessions,
    }),
    onSuccess: (_result, body) => {
      form.setValues(initialValues);
      form.resetDirty();
      showSuccessToast(
        body.endOtherSessions
          ? t`Your password has been changed, and your other sessions are signed out.`
          : t`Your password has been changed.`,
      );
    },
    fieldsByCode: { wrong_password: 'currentPassword', password_too_weak: 'newPassword' },
  });
  const headingId = 'change-password-heading';

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Title order={2} id={headingId} mb={4}>
        <Trans>Change password</Trans>
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        <Trans>Use at least 8 characters, and a password you do not use anywhere else.</Trans>
      </Text>
      <form noValidate onSubmit={onSubmit}>
        <Stack gap="md" maw={420}>
          <FormAlert message={formError} />
          <PasswordField
            label={t`Current password`}
            autoComplete="current-password"
            {...form.getInputProps('currentPassword')}
          />
          <Stack gap="xs">
            <PasswordField
              label={t`New password`}
              autoComplete="new-password"
              {...form.getInputProps('newPassword')}
            />
            <PasswordStrengthMeter
              password={form.values.newPassword}
              personalWords={personalWords}
            />
          </Stack>
          <PasswordField
            label={t`Confirm new password`}
            autoComplete="new-password"
            {...form.getInputProps('confirmPassword')}
          />
          <Checkbox
            label={t`Sign out my other sessions`}
            {...form.getInputProps('endOtherSessions', { type: 'checkbox' })}
          />
          <Group>
            <BusyButton isBusy={isPending} busyLabel={t`Saving...`}>
              <Trans>Change password</Trans>
            </BusyButton>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
