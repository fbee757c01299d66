import { setLevelBodySchema } from '@coffer/contracts/admin';
import { Button, Group, Modal, NumberInput, Stack, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { BusyButton } from '../../../components/busy-button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { contractResolver } from '../../../lib/forms.ts';
import { showErrorToast, showSuccessToast } from '../../../lib/toasts.ts';
import { adminQueryRoot, setLevel } from '../api.ts';

export type LevelTarget = { id: string; username: string; level: number };

const levelMin = 1;
const levelMax = 9;

function LevelForm({ user, onClose }: { user: LevelTarget; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<{ level: number | string; reason: string }>({
    mode: 'controlled',
    initialValues: { level: user.level, reason: '' },
    validate: contractResolver(setLevelBodySchema),
  });
  const save = useMutation({
    mutationFn: (body: { level: number; reason: string }) => setLevel(user.id, body),
    onSuccess: async () => {
      showSuccessToast('Account level updated successfully');
      onClose();
      await queryClient.invalidateQueries({ queryKey: adminQueryRoot });
    },
    onError: (error) => {
      showErrorToast('Failed to upgrade account level');
      setFormError(errorMessage(error));
    },
  });

  return (
    <form
      noValidate
      onSubmit={form.onSubmit((values) => {
        setFormError(null);
        save.mutate(setLevelBodySchema.parse(values));
      })}
    >
      <Stack gap="md">
        <FormAlert message={formError} />
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
          <BusyButton isBusy={save.isPending} busyLabel="Updating...">
            Upgrade Level
          </BusyButton>
        </Group>
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
