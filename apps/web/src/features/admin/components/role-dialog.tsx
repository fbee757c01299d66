import { setRoleBodySchema } from '@coffer/contracts/admin';
import { type Role, roles } from '@coffer/contracts/auth';
import { errorCodes } from '@coffer/contracts/errors';
import { Select, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { FormAlert } from '../../../components/form-alert.tsx';
import { Modal } from '../../../components/modal.tsx';
import {
  ReasonField,
  StaffActionButtons,
  useStaffAction,
} from '../../../components/staff-action-form.tsx';
import { roleLabels } from '../../../components/staff-role-badge.tsx';
import { contractResolver, showApiErrorOnForm } from '../../../lib/forms.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { setRole } from '../api.ts';

export type RoleTarget = { id: string; username: string; role: Role };

const roleChoices = roles.map((role) => ({ value: role, label: roleLabels[role] }));

function RoleForm({ user, onClose }: { user: RoleTarget; onClose: () => void }) {
  const form = useForm<{ role: Role; reason: string }>({
    mode: 'controlled',
    initialValues: { role: user.role, reason: '' },
    validate: contractResolver(setRoleBodySchema),
  });
  const save = useStaffAction({
    mutationFn: (body: { role: Role; reason: string }) => setRole(user.id, body),
    onDone: (detail) => {
      showSuccessToast(
        detail.pendingRoleGrant
          ? `Admin role requested for ${detail.username}: a second admin must approve it.`
          : `${detail.username} is now ${roleLabels[detail.role]}.`,
      );
      onClose();
    },
    describeError: (error) =>
      showApiErrorOnForm(form, error, { otherFailureMessage: errorCodes.internal.message }),
  });

  return (
    <form
      noValidate
      onSubmit={form.onSubmit((values) => save.submit(setRoleBodySchema.parse(values)))}
    >
      <Stack gap="md">
        <Text size="sm">
          {form.values.role === 'admin'
            ? `The admin role needs a second admin: it takes effect when another admin approves it on ${user.username}'s page.`
            : `A new role takes effect at once: ${user.username} is signed out everywhere and signs in again with the new access.`}{' '}
          Staff cannot move money: a customer who becomes staff has their wallet frozen.
        </Text>
        <FormAlert message={save.formError} />
        <Select
          label="Role"
          required
          data={roleChoices}
          allowDeselect={false}
          data-autofocus
          {...form.getInputProps('role')}
        />
        <ReasonField {...form.getInputProps('reason')} />
        <StaffActionButtons
          onCancel={onClose}
          isBusy={save.isPending}
          busyLabel="Changing..."
          disabled={form.values.role === user.role}
        >
          Change role
        </StaffActionButtons>
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
