import {
  type Passkey,
  passkeyAddFormSchema,
  passkeyRemoveBodySchema,
  passkeyRenameBodySchema,
} from '@coffer/contracts/passkeys';
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
  const { form, formError, onSubmit, isPending } = useContractForm({
    schema: passkeyAddFormSchema,
    initialValues: { name: '', currentPassword: '' },
    mutation: useAddPasskey(),
    onSuccess: (_list, body) => {
      showSuccessToast(`Passkey "${body.name}" added. You can now sign in with it.`);
      onClose();
    },
    onError: (shown) => shown.setFieldValue('currentPassword', ''),
    fieldsByCode: { wrong_password: 'currentPassword' },
  });
  return (
    <form noValidate onSubmit={onSubmit}>
      <Stack gap="md">
        <Text size="sm">
          A passkey signs you in with this device's screen lock (fingerprint, face or PIN) instead
          of your password, and confirms payments. Your device keeps its secret.
        </Text>
        <FormAlert message={formError} />
        <TextInput
          label="Name"
          description="To recognise it later, e.g. “My phone”"
          data-autofocus
          {...form.getInputProps('name')}
        />
        <PasswordField
          label="Current password"
          autoComplete="current-password"
          {...form.getInputProps('currentPassword')}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <BusyButton isBusy={isPending} busyLabel="Waiting for your device...">
            Add passkey
          </BusyButton>
        </Group>
      </Stack>
    </form>
  );
}

/** The forms live inside the dialogs, so each starts afresh when its dialog opens. */
export function AddPasskeyDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Add a passkey" centered>
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
  return (
    <Modal opened={opened} onClose={onClose} title="Rename passkey" centered>
      {passkey && <RenamePasskeyForm passkey={passkey} onClose={onClose} />}
    </Modal>
  );
}

function RenamePasskeyForm({ passkey, onClose }: { passkey: Passkey; onClose: () => void }) {
  return (
    <OneFieldForm
      schema={passkeyRenameBodySchema}
      name="name"
      initialValue={passkey.name}
      mutation={useRenamePasskey(passkey.id)}
      successMessage="The passkey has been renamed."
      onClose={onClose}
    >
      {(inputProps) => <TextInput label="Name" data-autofocus {...inputProps} />}
    </OneFieldForm>
  );
}

function RemovePasskeyForm({ passkey, onClose }: { passkey: Passkey; onClose: () => void }) {
  const { form, formError, onSubmit, isPending } = useContractForm({
    schema: passkeyRemoveBodySchema,
    initialValues: { currentPassword: '' },
    mutation: useRemovePasskey(passkey.id),
    onSuccess: () => {
      showSuccessToast(`Passkey "${passkey.name}" removed.`);
      onClose();
    },
    onError: (shown) => shown.setFieldValue('currentPassword', ''),
    fieldsByCode: { wrong_password: 'currentPassword' },
  });
  return (
    <form noValidate onSubmit={onSubmit}>
      <Stack gap="md">
        <Text size="sm">
          <strong>{passkey.name}</strong> will no longer sign you in or confirm payments.
        </Text>
        <FormAlert message={formError} />
        <PasswordField
          label="Current password"
          autoComplete="current-password"
          data-autofocus
          {...form.getInputProps('currentPassword')}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <BusyButton isBusy={isPending} busyLabel="Removing..." color="red">
            Remove passkey
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
  return (
    <Modal opened={opened} onClose={onClose} title="Remove passkey" centered>
      {passkey && <RemovePasskeyForm passkey={passkey} onClose={onClose} />}
    </Modal>
  );
}
