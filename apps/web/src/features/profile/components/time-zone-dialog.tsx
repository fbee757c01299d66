import { updateTimeZoneBodySchema } from '@coffer/contracts/time-zones';
import { Button, Group, Select, Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { BusyButton } from '../../../components/busy-button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useContractForm } from '../../../lib/forms.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { useUpdateTimeZone } from '../api.ts';

/** Every zone the browser knows, the current one first in case it is an alias of another. */
function zoneChoices(current: string): string[] {
  return [...new Set([current, 'UTC', ...Intl.supportedValuesOf('timeZone')])];
}

function TimeZoneForm({ current, onClose }: { current: string; onClose: () => void }) {
  const zones = useMemo(() => zoneChoices(current), [current]);
  const { form, formError, onSubmit, isPending } = useContractForm({
    schema: updateTimeZoneBodySchema,
    initialValues: { timeZone: current },
    mutation: useUpdateTimeZone(),
    onSuccess: () => {
      showSuccessToast('Your time zone has been updated.');
      onClose();
    },
  });

  return (
    <form noValidate onSubmit={onSubmit}>
      <Stack gap="md">
        <FormAlert message={formError} />
        <Text size="sm">
          Statements start and end at midnight in this zone, and show their times in it.
        </Text>
        <Select
          label="Time zone"
          data={zones}
          searchable
          allowDeselect={false}
          nothingFoundMessage="No time zone by that name"
          data-autofocus
          {...form.getInputProps('timeZone')}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <BusyButton isBusy={isPending} busyLabel="Saving...">
            Save
          </BusyButton>
        </Group>
      </Stack>
    </form>
  );
}

/** The form lives inside the dialog, so it starts afresh each time the dialog opens. */
export function TimeZoneDialog({
  opened,
  current,
  onClose,
}: {
  opened: boolean;
  current: string;
  onClose: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title="Change time zone" centered>
      <TimeZoneForm current={current} onClose={onClose} />
    </Modal>
  );
}
