import { setRoleBodySchema } from '@coffer/contracts/admin';
import { type Role, roles } from '@coffer/contracts/auth';
import { errorCodes } from '@coffer/contracts/errors';
import { Button, Group, Modal, Select, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { BusyButton } from '../../../components/busy-button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { contractResolver, showApiErrorOnForm } from '../../../lib/forms.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { adminQueryRoot, setRole } from '../api.ts';
import { roleLabels } from './badges.tsx';

export type RoleTarget = { id: string; username: string; role: Role };

const roleChoices = roles.map((role) => ({ value: role, label: roleLabels[role] }));

function RoleForm({ user, onClose }: { user: RoleTarget; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<{ role: Role; reason: string }>({
    mode: 'controlled',
    initialValues: { role: user.role, reason: '' },
    validate: contractResolver(setRoleBodySchema),
  });
  const save = useMutation({
    mutationFn: (body: { role: Role; reason: string }) => setRole(user.id, body),
    onSuccess: async (detail) => {
      showSuccessToast(`${detail.username} is now ${roleLabels[detail.role]}.`);
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
        save.mutate(setRoleBodySchema.parse(values));
      })}
    >
      <Stack gap="md">
        <Text size="sm">
          A new role takes effect at once: {user.username} is signed out everywhere and signs in
          again with the new access.
        </Text>
        <FormAlert message={formError} />
        <Select
          label="Role"
          required
          data={roleChoices}
          allowDeselect={false}
          data-autofocus
          {...form.getInputProps('role')}
        />
        <Textarea
          label="Reason"
          required
          autosize
          minRows={2}
          maxRows={6}
          {...form.getInputProps('reason')}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <BusyButton
            isBusy={save.isPending}
            busyLabel="Changing..."
            disabled={form.values.role === user.role}
          >
            Change role
          </BusyButton>
        </Group>
      </Stack>
    </form>
  );
}

/** Staff roles: who may use the back office, and who may approve (admin only). */
export function RoleDialog({
  user,
  opened,
  onClose,
  onExited,
}: {
  /** Whom the dialog is about; it keeps its content while it closes. */
  user: RoleTarget | null;
  opened: boolean;
  onClose: () => void;
  onExited?: () => void;
}) {
  return (
    <Modal
      opened={opened && user !== null}
      onClose={onClose}
      onExitTransitionEnd={onExited}
      title={`Change the role of ${user?.username ?? ''}`}
      centered
    >
      {user && <RoleForm user={user} onClose={onClose} />}
    </Modal>
  );
}
