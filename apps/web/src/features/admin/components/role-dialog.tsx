import { setRoleBodySchema } from '@coffer/contracts/admin';
import { type Role, roles } from '@coffer/contracts/auth';
import { errorCodes } from '@coffer/contracts/errors';
import { Trans, useLingui } from '@lingui/react/macro';
import { Select, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { contractResolver, showApiErrorOnForm } from '../../../lib/forms.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { setRole } from '../api.ts';
import { roleNames } from './badges.tsx';
import {
  PersonActionDialog,
  PersonActionForm,
  type PersonDialogProps,
} from './person-action-dialog.tsx';

export type RoleTarget = { id: string; username: string; role: Role };

function RoleForm({ user, onClose }: { user: RoleTarget; onClose: () => void }) {
  const { t, i18n } = useLingui();
  const { username } = user;
  const roleChoices = roles.map((role) => ({ value: role, label: i18n._(roleNames[role]) }));
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
      onDone={(detail) => {
        const changed = detail.username;
        const roleName = i18n._(roleNames[detail.role]);
        showSuccessToast(
          detail.pendingRoleGrant
            ? t`Admin role requested for ${changed}: a second admin must approve it.`
            : t`${changed} is now ${roleName}.`,
        );
      }}
      describeError={(error) =>
        showApiErrorOnForm(form, error, { otherFailureMessage: errorCodes.internal.message })
      }
      intro={
        <Text size="sm">
          {form.values.role === 'admin'
            ? t`The admin role needs a second admin: it takes effect when another admin approves it on ${username}'s page.`
            : t`A new role takes effect at once: ${username} is signed out everywhere and signs in again with the new access.`}{' '}
          <Trans>
            Staff cannot move money: a customer who becomes staff has their wallet frozen.
          </Trans>
        </Text>
      }
      field={
        <Select
          label={t`Role`}
          required
          data={roleChoices}
          allowDeselect={false}
          data-autofocus
          {...form.getInputProps('role')}
        />
      }
      buttons={{
        label: t`Change role`,
        busyLabel: t`Changing...`,
        disabled: form.values.role === user.role,
      }}
      onClose={onClose}
    />
  );
}

/** Staff roles: who may use the back office, and who may approve (admin only). */
export function RoleDialog(props: PersonDialogProps<RoleTarget>) {
  const { t } = useLingui();
  return (
    <PersonActionDialog {...props} title={({ username }) => t`Change the role of ${username}`}>
      {(user) => <RoleForm user={user} onClose={props.onClose} />}
    </PersonActionDialog>
  );
}
