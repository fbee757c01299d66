import { freezeBodySchema } from '@coffer/contracts/admin';
import { errorCodes } from '@coffer/contracts/errors';
import { useLingui } from '@lingui/react/macro';
import { Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { customerSeesThis } from '../../../components/staff-action-form.tsx';
import { contractResolver, showApiErrorOnForm } from '../../../lib/forms.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { setFrozen } from '../api.ts';
import {
  PersonActionDialog,
  PersonActionForm,
  type PersonDialogProps,
} from './person-action-dialog.tsx';

export type FreezeTarget = { id: string; username: string; isFrozen: boolean };

function FreezeForm({ user, onClose }: { user: FreezeTarget; onClose: () => void }) {
  const { t } = useLingui();
  const willFreeze = !user.isFrozen;
  const { username } = user;
  const form = useForm({
    mode: 'controlled',
    initialValues: { reason: '' },
    validate: contractResolver(freezeBodySchema),
  });
  return (
    <PersonActionForm
      form={form}
      toBody={(values) => freezeBodySchema.parse(values)}
      send={(body) => setFrozen(user.id, willFreeze, body)}
      onDone={() =>
        showSuccessToast(willFreeze ? t`Transactions disabled` : t`Transactions enabled`)
      }
      describeError={(error) =>
        showApiErrorOnForm(form, error, { otherFailureMessage: errorCodes.internal.message })
      }
      intro={
        <Text size="sm">
          {willFreeze
            ? t`${username} will not be able to send money, withdraw or pay bills until transactions are enabled again.`
            : t`${username} will be able to send money, withdraw and pay bills again.`}
        </Text>
      }
      reasonDescription={customerSeesThis}
      buttons={{
        label: willFreeze ? t`Freeze` : t`Unfreeze`,
        busyLabel: willFreeze ? t`Freezing...` : t`Unfreezing...`,
        // Red 9: white on it passes 4.5:1, the default red 6 does not.
        color: willFreeze ? 'red.9' : undefined,
      }}
      onClose={onClose}
    />
  );
}

/** Freeze or unfreeze a person's transactions, with the reason they will be shown. */
export function FreezeDialog(props: PersonDialogProps<FreezeTarget>) {
  const { t } = useLingui();
  return (
    <PersonActionDialog
      {...props}
      title={({ isFrozen, username }) =>
        isFrozen ? t`Unfreeze ${username}` : t`Freeze ${username}`
      }
    >
      {(user) => <FreezeForm user={user} onClose={props.onClose} />}
    </PersonActionDialog>
  );
}
