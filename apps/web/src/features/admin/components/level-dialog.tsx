import { setLevelBodySchema } from '@coffer/contracts/admin';
import { NumberInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { errorMessage } from '../../../lib/api-client.ts';
import { contractResolver } from '../../../lib/forms.ts';
import { showErrorToast, showSuccessToast } from '../../../lib/toasts.ts';
import { setLevel } from '../api.ts';
import {
  PersonActionDialog,
  PersonActionForm,
  type PersonDialogProps,
} from './person-action-dialog.tsx';

export type LevelTarget = { id: string; username: string; level: number };

const levelMin = 1;
const levelMax = 9;

function LevelForm({ user, onClose }: { user: LevelTarget; onClose: () => void }) {
  const form = useForm<{ level: number | string; reason: string }>({
    mode: 'controlled',
    initialValues: { level: user.level, reason: '' },
    validate: contractResolver(setLevelBodySchema),
  });
  return (
    <PersonActionForm
      form={form}
      toBody={(values) => setLevelBodySchema.parse(values)}
      send={(body) => setLevel(user.id, body)}
      onDone={() => showSuccessToast('Account level updated successfully')}
      describeError={(error) => {
        showErrorToast('Failed to upgrade account level');
        return errorMessage(error);
      }}
      field={
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
      }
      buttons={{ label: 'Upgrade Level', busyLabel: 'Updating...' }}
      onClose={onClose}
    />
  );
}

/** Set Level: staff may set any level from 1 to 9, with a reason (PRODUCT.md section 5). */
export function LevelDialog(props: PersonDialogProps<LevelTarget>) {
  return (
    <PersonActionDialog {...props} title={(user) => `Set level of ${user.username}`}>
      {(user) => <LevelForm user={user} onClose={props.onClose} />}
    </PersonActionDialog>
  );
}
