import {
  type Passkey,
  passkeyAddFormSchema,
  passkeyRemoveBodySchema,
  passkeyRenameBodySchema,
} from '@coffer/contracts/passkeys';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { BusyButton } from '../../../components/busy-button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { Modal } from '../../../components/modal.tsx';
import { PasswordField } from '../../../components/password-field.tsx';
import { useContractForm } from '../../../lib/forms.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { useAddPasskey, useRemovePasskey, useRenamePasskey } from '../api.ts';
import { OneFieldForm } from './one-field-form.tsx';

function AddPasskeyForm({ onClose }: { onClose: () => void }) {
  const { t } = useLingui();
  const { form, formError, onSubmit, isPending } = useContractForm({
    schema: passkeyAddFormSchema,
    initialValues: { name: '', currentPassword: '' },
    mutation: useAddPasskey(),
    onSuccess: (_list, body) => {
      const passkeyName = body.name;
      showSuccessToast(t`Passkey "${passkeyName}" added. You can now sign in with it.`);
      onClose();
    },
    onError: (shown) => shown.setFieldValue('currentPassword', ''),
    fieldsByCode: { wrong_password: 'currentPassword' },
  });
  return (
    <form noValidate onSubmit={onSubmit}>
      <Stack gap="md">
        <Text size="sm">
          <Trans>
            A passkey signs you in with this device's screen lock (fingerprint, face or PIN) instead
            of your password, and confirms payments. Your device keeps its secret.
          </Trans>
        </Text>
        <FormAlert message={formError} />
        <TextInput
          label={t`Name`}
          description={t`To recognise it later, e.g. “My phone”`}
          data-autofocus
          {...form.getInputProps('name')}
        />
        <PasswordField
          label={t`Current password`}
          autoComplete="current-password"
          {...form.getInputProps('currentPassword')}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            <Trans>Cancel</Trans>
          </Button>
          <BusyButton isBusy={isPending} busyLabel={t`Waiting for your device...`}>
            <Trans>Add passkey</Trans>
          </BusyButton>
        </Group>
      </Stack>
    </form>
  );
}

/** The forms live inside the dialogs, so each starts afresh when its dialog opens. */
export function AddPasskeyDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useLingui();
  return (
    <Modal opened={opened} onClose={onClose} title={t`Add a passkey`} centered>
      <AddPasskeyForm onClose={onClose} />
    </Modal>
  );
}

export function RenamePasskeyDialog({
  opened,
  passkey,
  onClose,
}: {
  opened: boolean;
  passkey: Passkey | null;
  onClose: () => void;
}) {
  const { t } = useLingui();
  return (
    <Modal opened={opened} onClose={onClose} title={t`Rename passkey`} centered>
      {passkey && <RenamePasskeyForm passkey={passkey} onClose={onClose} />}
    </Modal>
  );
}

function RenamePasskeyForm({ passkey, onClose }: { passkey: Passkey; onClose: () => void }) {
  const { t } = useLingui();
  return (
    <OneFieldForm
      schema={passkeyRenameBodySchema}
      name="name"
      initialValue={passkey.name}
      mutation={useRenamePasskey(passkey.id)}
      successMessage={t`The passkey has been renamed.`}
      onClose={onClose}
    >
      {(inputProps) => <TextInput label={t`Name`} data-autofocus {...inputProps} />}
    </OneFieldForm>
  );
}

function RemovePasskeyForm({ passkey, onClose }: { passkey: Passkey; onClose: () => void }) {
  const { t } = useLingui();
  const passkeyName = passkey.name;
  const { form, formError, onSubmit, isPending } = useContractForm({
    schema: passkeyRemoveBodySchema,
    initialValues: { currentPassword: '' },
    mutation: useRemovePasskey(passkey.id),
    onSuccess: () => {
      showSuccessToast(t`Passkey "${passkeyName}" removed.`);
      onClose();
    },
    onError: (shown) => shown.setFieldValue('currentPassword', ''),
    fieldsByCode: { wrong_password: 'currentPassword' },
  });
  return (
    <form noValidate onSubmit={onSubmit}>
      <Stack gap="md">
        <Text size="sm">
          <Trans>
            <strong>{passkeyName}</strong> will no longer sign you in or confirm payments.
          </Trans>
        </Text>
        <FormAlert message={formError} />
        <PasswordField
          label={t`Current password`}
          autoComplete="current-password"
          data-autofocus
          {...form.getInputProps('currentPassword')}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            <Trans>Cancel</Trans>
          </Button>
          <BusyButton isBusy={isPending} busyLabel={t`Removing...`} color="red">
            <Trans>Remove passkey</Trans>
          </BusyButton>
        </Group>
      </Stack>
    </form>
  );
}

export function RemovePasskeyDialog({
  opened,
  passkey,
  onClose,
}: {
  opened: boolean;
  passkey: Passkey | null;
  onClose: () => void;
}) {
  const { t } = useLingui();
  return (
    <Modal opened={opened} onClose={onClose} title={t`Remove passkey`} centered>
      {passkey && <RemovePasskeyForm passkey={passkey} onClose={onClose} />}
    </Modal>
  );
}
