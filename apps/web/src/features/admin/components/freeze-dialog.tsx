import { freezeBodySchema } from '@coffer/contracts/admin';
import { errorCodes } from '@coffer/contracts/errors';
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { BusyButton } from '../../../components/busy-button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { contractResolver, showApiErrorOnForm } from '../../../lib/forms.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { adminQueryRoot, setFrozen } from '../api.ts';

export type FreezeTarget = { id: string; username: string; isFrozen: boolean };

function FreezeForm({ user, onClose }: { user: FreezeTarget; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [formError, setFormError] = useState<string | null>(null);
  const willFreeze = !user.isFrozen;
  const form = useForm({
    mode: 'controlled',
    initialValues: { reason: '' },
    validate: contractResolver(freezeBodySchema),
  });
  const save = useMutation({
    mutationFn: (body: { reason: string }) => setFrozen(user.id, willFreeze, body),
    onSuccess: async () => {
      showSuccessToast(willFreeze ? 'Transactions disabled' : 'Transactions enabled');
      onClose();
      await queryClient.invalidateQueries({ queryKey: adminQueryRoot });
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
        save.mutate(freezeBodySchema.parse(values));
      })}
    >
      <Stack gap="md">
        <Text size="sm">
          {willFreeze
            ? `${user.username} will not be able to send money, withdraw or pay bills until transactions are enabled again. They see the reason you give here.`
            : `${user.username} will be able to send money, withdraw and pay bills again. They see the reason you give here.`}
        </Text>
        <FormAlert message={formError} />
        <Textarea
          label="Reason"
          required
          autosize
          minRows={2}
          maxRows={6}
          data-autofocus
          {...form.getInputProps('reason')}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <BusyButton
            isBusy={save.isPending}
            busyLabel={willFreeze ? 'Freezing...' : 'Unfreezing...'}
            // Red 9: white on it passes 4.5:1, the default red 6 does not.
            color={willFreeze ? 'red.9' : undefined}
          >
            {willFreeze ? 'Freeze' : 'Unfreeze'}
          </BusyButton>
        </Group>
      </Stack>
    </form>
  );
}

/** Freeze or unfreeze a person's transactions, with the reason they will be shown. */
export function FreezeDialog({
  user,
  opened,
  onClose,
  onExited,
}: {
  /** Whom the dialog is about; it keeps its content while it closes. */
  user: FreezeTarget | null;
  opened: boolean;
  onClose: () => void;
  onExited?: () => void;
}) {
  return (
    <Modal
      opened={opened && user !== null}
      onClose={onClose}
      onExitTransitionEnd={onExited}
      title={user?.isFrozen ? `Unfreeze ${user.username}` : `Freeze ${user?.username ?? ''}`}
      centered
    >
      {user && <FreezeForm user={user} onClose={onClose} />}
    </Modal>
  );
}
