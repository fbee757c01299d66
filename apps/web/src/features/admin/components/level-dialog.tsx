import { setLevelBodySchema } from '@coffer/contracts/admin';
import { NumberInput, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { FormAlert } from '../../../components/form-alert.tsx';
import { Modal } from '../../../components/modal.tsx';
import {
  ReasonField,
  StaffActionButtons,
  useStaffAction,
} from '../../../components/staff-action-form.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { contractResolver } from '../../../lib/forms.ts';
import { showErrorToast, showSuccessToast } from '../../../lib/toasts.ts';
import { setLevel } from '../api.ts';

export type LevelTarget = { id: string; username: string; level: number };

const levelMin = 1;
const levelMax = 9;

function LevelForm({ user, onClose }: { user: LevelTarget; onClose: () => void }) {
  const form = useForm<{ level: number | string; reason: string }>({
    mode: 'controlled',
    initialValues: { level: user.level, reason: '' },
    validate: contractResolver(setLevelBodySchema),
  });
  const save = useStaffAction({
    mutationFn: (body: { level: number; reason: string }) => setLevel(user.id, body),
    onDone: () => {
      showSuccessToast('Account level updated successfully');
      onClose();
    },
    describeError: (error) => {
      showErrorToast('Failed to upgrade account level');
      return errorMessage(error);
    },
  });

  return (
    <form
      noValidate
      onSubmit={form.onSubmit((values) => save.submit(setLevelBodySchema.parse(values)))}
    >
      <Stack gap="md">
        <FormAlert message={save.formError} />
        <NumberInput
          label="Account level"
          description={`A whole number from ${levelMin} to ${levelMax}. Now level ${user.level}.`}
          required
          min={levelMin}
          max={levelMax}
          step={1}
          allowDecimal={false}
          allowNegative={false}
          clampBehavior="none"
          data-autofocus
          {...form.getInputProps('level')}
        />
        <ReasonField {...form.getInputProps('reason')} />
        <StaffActionButtons onCancel={onClose} isBusy={save.isPending} busyLabel="Updating...">
          Upgrade Level
        </StaffActionButtons>
      </Stack>
    </form>
  );
}

/** Set Level: staff may set any level from 1 to 9, with a reason (PRODUCT.md section 5). */
export function LevelDialog({
  user,
  opened,
  onClose,
  onExited,
}: {
  /** Whom the dialog is about; it keeps its content while it closes. */
  user: LevelTarget | null;
  opened: boolean;
  onClose: () => void;
  onExited?: () => void;
}) {
  return (
    <Modal
      opened={opened && user !== null}
      onClose={onClose}
      onExitTransitionEnd={onExited}
      title={`Set level of ${user?.username ?? ''}`}
      centered
    >
      {user && <LevelForm user={user} onClose={onClose} />}
    </Modal>
  );
}
