import { errorCodes } from '@coffer/contracts/errors';
import { updateUsernameBodySchema } from '@coffer/contracts/profile';
import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { BusyButton } from '../../../components/busy-button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { contractResolver, showApiErrorOnForm } from '../../../lib/forms.ts';
import { meQueryKey } from '../../../lib/session.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { profileQueryOptions, refreshActivityAndSessions, updateUsername } from '../api.ts';

function EditUsernameForm({
  currentUsername,
  onClose,
}: {
  currentUsername: string;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm({
    mode: 'controlled',
    initialValues: { username: currentUsername },
    validate: contractResolver(updateUsernameBodySchema),
  });
  const save = useMutation({
    mutationFn: updateUsername,
    onSuccess: (profile) => {
      queryClient.setQueryData(profileQueryOptions.queryKey, profile);
      queryClient.setQueryData(meQueryKey, (me) =>
        me ? { ...me, username: profile.username } : me,
      );
      void refreshActivityAndSessions(queryClient);
      showSuccessToast('Your username has been updated.');
      onClose();
    },
    onError: (error) =>
      setFormError(
        showApiErrorOnForm(form, error, { otherFailureMessage: errorCodes.internal.message }),
      ),
  });

  return (
    <form
      noValidate
      onSubmit={form.onSubmit((values) => {
        setFormError(null);
        save.mutate(updateUsernameBodySchema.parse(values));
      })}
    >
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
          <BusyButton isBusy={save.isPending} busyLabel="Saving...">
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
