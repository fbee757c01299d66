import { updateTimeZoneBodySchema } from '@coffer/contracts/time-zones';
import { Trans, useLingui } from '@lingui/react/macro';
import { Select, Text } from '@mantine/core';
import { useMemo } from 'react';
import { Modal } from '../../../components/modal.tsx';
import { useUpdateTimeZone } from '../api.ts';
import { OneFieldForm } from './one-field-form.tsx';

/** Every zone the browser knows, the current one first in case it is an alias of another. */
function zoneChoices(current: string): string[] {
  return [...new Set([current, 'UTC', ...Intl.supportedValuesOf('timeZone')])];
}

function TimeZoneForm({ current, onClose }: { current: string; onClose: () => void }) {
  const { t } = useLingui();
  const zones = useMemo(() => zoneChoices(current), [current]);
  return (
    <OneFieldForm
      schema={updateTimeZoneBodySchema}
      name="timeZone"
      initialValue={current}
      mutation={useUpdateTimeZone()}
      successMessage={t`Your time zone has been updated.`}
      onClose={onClose}
    >
      {(inputProps) => (
        <>
          <Text size="sm">
            <Trans>
              Statements start and end at midnight in this zone, and show their times in it.
            </Trans>
          </Text>
          <Select
            label={t`Time zone`}
            data={zones}
            searchable
            allowDeselect={false}
            nothingFoundMessage={t`No time zone by that name`}
            data-autofocus
            {...inputProps}
          />
        </>
      )}
    </OneFieldForm>
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
  const { t } = useLingui();
  return (
    <Modal opened={opened} onClose={onClose} title={t`Change time zone`} centered>
      <TimeZoneForm current={current} onClose={onClose} />
    </Modal>
  );
}
