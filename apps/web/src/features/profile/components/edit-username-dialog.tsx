import { updateUsernameBodySchema } from '@coffer/contracts/profile';
import { Button, Group, Stack, TextInput } from '@mantine/core';
import { BusyButton } from '../../../components/busy-button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useContractForm } from '../../../lib/forms.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { useUpdateUsername } from '../api.ts';

function EditUsernameForm({
  currentUsername,
  onClose,
}: {
  currentUsername: string;
  onClose: () => void;
}) {
  const { form, formError, onSubmit, isPending } = useContractForm({
    schema: updateUsernameBodySchema,
    initialValues: { username: currentUsername },
    mutation: useUpdateUsername(),
    onSuccess: () => {
      showSuccessToast('Your username has been updated.');
      onClose();
    },
  });

  return (
    <form noValidate onSubmit={onSubmit}>
      <Stack gap="md">
        <FormAlert message={formError} />
        <TextInput
          label="Username"
          autoComplete="username"
          data-autofocus
          {...form.getInputProps('username')}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <BusyButton isBusy={isPending} busyLabel="Saving...">
            Save
          </BusyButton>
        </Group>
      </Stack>
    </form>
  );
}

/** The form lives inside the dialog, so it starts afresh each time the dialog opens. */
export function EditUsernameDialog({
  opened,
  currentUsername,
  onClose,
}: {
  opened: boolean;
  currentUsername: string;
  onClose: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title="Edit Username" centered>
      <EditUsernameForm currentUsername={currentUsername} onClose={onClose} />
    </Modal>
  );
}
