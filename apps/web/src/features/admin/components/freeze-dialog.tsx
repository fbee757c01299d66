import { freezeBodySchema } from '@coffer/contracts/admin';
import { errorCodes } from '@coffer/contracts/errors';
import { Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { FormAlert } from '../../../components/form-alert.tsx';
import { Modal } from '../../../components/modal.tsx';
import {
  ReasonField,
  StaffActionButtons,
  useStaffAction,
} from '../../../components/staff-action-form.tsx';
import { contractResolver, showApiErrorOnForm } from '../../../lib/forms.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { setFrozen } from '../api.ts';

export type FreezeTarget = { id: string; username: string; isFrozen: boolean };

function FreezeForm({ user, onClose }: { user: FreezeTarget; onClose: () => void }) {
  const willFreeze = !user.isFrozen;
  const form = useForm({
    mode: 'controlled',
    initialValues: { reason: '' },
    validate: contractResolver(freezeBodySchema),
  });
  const save = useStaffAction({
    mutationFn: (body: { reason: string }) => setFrozen(user.id, willFreeze, body),
    onDone: () => {
      showSuccessToast(willFreeze ? 'Transactions disabled' : 'Transactions enabled');
      onClose();
    },
    describeError: (error) =>
      showApiErrorOnForm(form, error, { otherFailureMessage: errorCodes.internal.message }),
  });

  return (
    <form
      noValidate
      onSubmit={form.onSubmit((values) => save.submit(freezeBodySchema.parse(values)))}
    >
      <Stack gap="md">
        <Text size="sm">
          {willFreeze
            ? `${user.username} will not be able to send money, withdraw or pay bills until transactions are enabled again. They see the reason you give here.`
            : `${user.username} will be able to send money, withdraw and pay bills again. They see the reason you give here.`}
        </Text>
        <FormAlert message={save.formError} />
        <ReasonField data-autofocus {...form.getInputProps('reason')} />
        <StaffActionButtons
          onCancel={onClose}
          isBusy={save.isPending}
          busyLabel={willFreeze ? 'Freezing...' : 'Unfreezing...'}
          // Red 9: white on it passes 4.5:1, the default red 6 does not.
          color={willFreeze ? 'red.9' : undefined}
        >
          {willFreeze ? 'Freeze' : 'Unfreeze'}
        </StaffActionButtons>
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
