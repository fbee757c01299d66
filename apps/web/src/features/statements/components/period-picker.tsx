import { type StatementPeriodResult, statementFirstMonth } from '@coffer/contracts/statements';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { Group, Stack, TextInput } from '@mantine/core';
import { SegmentedChoice } from '../../../components/segmented-choice.tsx';

export type PeriodMode = 'month' | 'range';

/** What the customer has picked; only the fields of the chosen mode count. */
export type PeriodChoice = { mode: PeriodMode; month: string; from: string; to: string };

const modes: { value: PeriodMode; label: MessageDescriptor }[] = [
  { value: 'month', label: msg`Month` },
  { value: 'range', label: msg`Date range` },
];

/**
 * A month or a range of days. Native month and date inputs give the browser's own picker
 * (Mantine's date pickers are not installed); where a browser has no month picker, the
 * field takes "2026-11" as text, which the same check accepts.
 */
export function PeriodPicker({
  choice,
  onChange,
  resolved,
  today,
}: {
  choice: PeriodChoice;
  onChange: (choice: PeriodChoice) => void;
  /** The period check's answer: its message is shown beside the field it is about. */
  resolved: StatementPeriodResult;
  today: string;
}) {
  const { t, i18n } = useLingui();
  const errorFor = (field: 'month' | 'from' | 'to') =>
    'field' in resolved && resolved.field === field ? resolved.message : undefined;
  const update = (change: Partial<PeriodChoice>) => onChange({ ...choice, ...change });

  return (
    <Stack gap="md">
      <SegmentedChoice
        label={t`Statement period`}
        data={modes.map((mode) => ({ value: mode.value, label: i18n._(mode.label) }))}
        value={choice.mode}
        onChange={(mode) => update({ mode })}
        maw={320}
      />
      {choice.mode === 'month' ? (
        <TextInput
          type="month"
          label={t`Month`}
          value={choice.month}
          min={statementFirstMonth}
          max={today.slice(0, 7)}
          onChange={(event) => update({ month: event.currentTarget.value })}
          error={errorFor('month')}
          maw={320}
        />
      ) : (
        <Group align="flex-start" gap="md" grow preventGrowOverflow={false} maw={520}>
          <TextInput
            type="date"
            label={t({ message: 'From', context: 'first day of a date range' })}
            value={choice.from}
            min={`${statementFirstMonth}-01`}
            max={today}
            onChange={(event) => update({ from: event.currentTarget.value })}
            error={errorFor('from')}
          />
          <TextInput
            type="date"
            label={t({ message: 'To', context: 'last day of a date range' })}
            value={choice.to}
            min={`${statementFirstMonth}-01`}
            max={today}
            onChange={(event) => update({ to: event.currentTarget.value })}
            error={errorFor('to')}
          />
        </Group>
      )}
    </Stack>
  );
}
