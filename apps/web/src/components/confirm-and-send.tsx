import { useLingui } from '@lingui/react/macro';
import { Button, DataList, Group, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { BusyButton } from './busy-button.tsx';
import { FormAlert } from './form-alert.tsx';

/** One line of what is about to be sent: "Amount", "$25.00". */
export type ConfirmedDetail = { label: string; value: ReactNode; isStrong?: boolean };

/**
 * The last step before money leaves: what will be sent, the form's refusal, the step-up
 * code field when one is asked for, and the buttons to go back or send. The form that
 * owns the money action (lib/use-money-action.ts) says what confirming does.
 */
export function ConfirmAndSend({
  heading,
  details,
  notice,
  stepUpField,
  failure,
  isPending,
  onConfirm,
  backLabel,
  onBack,
  confirmLabel,
  justify,
}: {
  heading?: ReactNode;
  details: readonly (ConfirmedDetail | false)[];
  /** What the person should know before they confirm. */
  notice?: ReactNode;
  stepUpField?: ReactNode;
  failure: string | null;
  isPending: boolean;
  onConfirm: () => void;
  backLabel: string;
  onBack: () => void;
  confirmLabel: string;
  justify: 'space-between' | 'flex-end';
}) {
  const { t } = useLingui();
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onConfirm();
      }}
    >
      <Stack gap="md">
        {heading}
        <FormAlert message={failure} />
        <DataList labelWidth={96}>
          {details.map(
            (detail) =>
              detail && (
                <DataList.Item key={detail.label}>
                  <DataList.ItemLabel>{detail.label}</DataList.ItemLabel>
                  <DataList.ItemValue
                    fw={detail.isStrong ? 600 : undefined}
                    style={{ overflowWrap: 'anywhere' }}
                  >
                    {detail.value}
                  </DataList.ItemValue>
                </DataList.Item>
              ),
          )}
        </DataList>
        {notice}
        {stepUpField}
        <Group justify={justify} gap="sm">
          <Button variant="default" onClick={onBack} disabled={isPending}>
            {backLabel}
          </Button>
          <BusyButton isBusy={isPending} busyLabel={t`Sending...`}>
            {confirmLabel}
          </BusyButton>
        </Group>
      </Stack>
    </form>
  );
}
