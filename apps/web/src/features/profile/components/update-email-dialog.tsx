import { changeEmailBodySchema } from '@coffer/contracts/profile';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Checkbox, Group, Stack, Text, TextInput } from '@mantine/core';
import { BusyButton } from '../../../components/busy-button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { Modal } from '../../../components/modal.tsx';
import { PasswordField } from '../../../components/password-field.tsx';
import { useContractForm } from '../../../lib/forms.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { useChangeEmail } from '../api.ts';

function UpdateEmailForm({ currentEmail, onClose }: { currentEmail: string; onClose: () => void }) {
  const { t } = useLingui();
  const { form, formError, onSubmit, isPending } = useContractForm({
    schema: changeEmailBodySchema,
    initialValues: { newEmail: '', currentPassword: '', endOtherSessions: false },
    mutation: useChangeEmail(),
    onSuccess: (profile) => {
      const newEmail = profile.pendingEmail;
      showSuccessToast(
        newEmail
          ? t`We sent a link to ${newEmail}. Your email changes when you follow it.`
          : t`We sent a link to your new address. Your email changes when you follow it.`,
      );
      onClose();
    },
    onError: (shown) => shown.setFieldValue('currentPassword', ''),
    fieldsByCode: { wrong_password: 'currentPassword', email_in_use: 'newEmail' },
  });

  return (
    <form noValidate onSubmit={onSubmit}>
      <Stack gap="md">
        <Text size="sm">
          <Trans>
            Your address is <strong>{currentEmail}</strong>. We will send a link to the new address;
            the change takes effect when you follow it.
          </Trans>
        </Text>
        <FormAlert message={formError} />
        <TextInput
          label={t`New email`}
          type="email"
          autoComplete="email"
          data-autofocus
          {...form.getInputProps('newEmail')}
        />
        <PasswordField
          label={t`Current password`}
          autoComplete="current-password"
          {...form.getInputProps('currentPassword')}
        />
        <Checkbox
          label={t`Sign out my other sessions`}
          {...form.getInputProps('endOtherSessions', { type: 'checkbox' })}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            <Trans>Cancel</Trans>
          </Button>
          <BusyButton isBusy={isPending} busyLabel={t`Sending...`}>
            <Trans>Send link</Trans>
          </BusyButton>
        </Group>
      </Stack>
    </form>
  );
}

/** The form lives inside the dialog, so it starts afresh each time the dialog opens. */
export function UpdateEmailDialog({
  opened,
  currentEmail,
  onClose,
}: {
  opened: boolean;
  currentEmail: string;
  onClose: () => void;
}) {
  const { t } = useLingui();
  return (
    <Modal opened={opened} onClose={onClose} title={t`Update Email`} centered>
      <UpdateEmailForm currentEmail={currentEmail} onClose={onClose} />
    </Modal>
  );
}
