import { setRoleBodySchema } from '@coffer/contracts/admin';
import { type Role, roles } from '@coffer/contracts/auth';
import { errorCodes } from '@coffer/contracts/errors';
import { Select, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { roleLabels } from '../../../components/staff-role-badge.tsx';
import { contractResolver, showApiErrorOnForm } from '../../../lib/forms.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { setRole } from '../api.ts';
import {
  PersonActionDialog,
  PersonActionForm,
  type PersonDialogProps,
} from './person-action-dialog.tsx';

export type RoleTarget = { id: string; username: string; role: Role };

const roleChoices = roles.map((role) => ({ value: role, label: roleLabels[role] }));

function RoleForm({ user, onClose }: { user: RoleTarget; onClose: () => void }) {
  const form = useForm<{ role: Role; reason: string }>({
    mode: 'controlled',
    initialValues: { role: user.role, reason: '' },
    validate: contractResolver(setRoleBodySchema),
  });
  return (
    <PersonActionForm
      form={form}
      toBody={(values) => setRoleBodySchema.parse(values)}
      send={(body) => setRole(user.id, body)}
      onDone={(detail) =>
        showSuccessToast(
          detail.pendingRoleGrant
            ? `Admin role requested for ${detail.username}: a second admin must approve it.`
            : `${detail.username} is now ${roleLabels[detail.role]}.`,
        )
      }
      describeError={(error) =>
        showApiErrorOnForm(form, error, { otherFailureMessage: errorCodes.internal.message })
      }
      intro={
        <Text size="sm">
          {form.values.role === 'admin'
            ? `The admin role needs a second admin: it takes effect when another admin approves it on ${user.username}'s page.`
            : `A new role takes effect at once: ${user.username} is signed out everywhere and signs in again with the new access.`}{' '}
          Staff cannot move money: a customer who becomes staff has their wallet frozen.
        </Text>
      }
      field={
        <Select
          label="Role"
          required
          data={roleChoices}
          allowDeselect={false}
          data-autofocus
          {...form.getInputProps('role')}
        />
      }
      buttons={{
        label: 'Change role',
        busyLabel: 'Changing...',
        disabled: form.values.role === user.role,
      }}
      onClose={onClose}
    />
  );
}

/** Staff roles: who may use the back office, and who may approve (admin only). */
export function RoleDialog(props: PersonDialogProps<RoleTarget>) {
  return (
    <PersonActionDialog {...props} title={(user) => `Change the role of ${user.username}`}>
      {(user) => <RoleForm user={user} onClose={props.onClose} />}
    </PersonActionDialog>
  );
}
