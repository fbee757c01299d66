import { freezeBodySchema } from '@coffer/contracts/admin';
import { errorCodes } from '@coffer/contracts/errors';
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
  const willFreeze = !user.isFrozen;
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
      onDone={() => showSuccessToast(willFreeze ? 'Transactions disabled' : 'Transactions enabled')}
      describeError={(error) =>
        showApiErrorOnForm(form, error, { otherFailureMessage: errorCodes.internal.message })
      }
      intro={
        <Text size="sm">
          {willFreeze
            ? `${user.username} will not be able to send money, withdraw or pay bills until transactions are enabled again.`
            : `${user.username} will be able to send money, withdraw and pay bills again.`}
        </Text>
      }
      reasonDescription={customerSeesThis}
      buttons={{
        label: willFreeze ? 'Freeze' : 'Unfreeze',
        busyLabel: willFreeze ? 'Freezing...' : 'Unfreezing...',
        // Red 9: white on it passes 4.5:1, the default red 6 does not.
        color: willFreeze ? 'red.9' : undefined,
      }}
      onClose={onClose}
    />
  );
}

/** Freeze or unfreeze a person's transactions, with the reason they will be shown. */
export function FreezeDialog(props: PersonDialogProps<FreezeTarget>) {
  return (
    <PersonActionDialog
      {...props}
      title={(user) => (user.isFrozen ? `Unfreeze ${user.username}` : `Freeze ${user.username}`)}
    >
      {(user) => <FreezeForm user={user} onClose={props.onClose} />}
    </PersonActionDialog>
  );
}
