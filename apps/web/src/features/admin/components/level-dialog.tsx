import { setLevelBodySchema } from '@coffer/contracts/admin';
import { useLingui } from '@lingui/react/macro';
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
  const { t } = useLingui();
  const currentLevel = user.level;
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
      onDone={() => showSuccessToast(t`Account level updated successfully`)}
      describeError={(error) => {
        showErrorToast(t`Failed to upgrade account level`);
        return errorMessage(error);
      }}
      field={
        <NumberInput
          label={t`Account level`}
          description={t`A whole number from ${levelMin} to ${levelMax}. Now level ${currentLevel}.`}
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
      buttons={{ label: t`Upgrade Level`, busyLabel: t`Updating...` }}
      onClose={onClose}
    />
  );
}

/** Set Level: staff may set any level from 1 to 9, with a reason (PRODUCT.md section 5). */
export function LevelDialog(props: PersonDialogProps<LevelTarget>) {
  const { t } = useLingui();
  return (
    <PersonActionDialog {...props} title={({ username }) => t`Set level of ${username}`}>
      {(user) => <LevelForm user={user} onClose={props.onClose} />}
    </PersonActionDialog>
  );
}
