import { toCurrencyCode } from '@coffer/contracts/currencies';
import { toDecimalString } from '@coffer/contracts/money';
import { describePayeeTarget } from '@coffer/contracts/saved-payees';
import {
  dayOfMonthMax,
  occurrencesCountMax,
  type ScheduleBody,
  type ScheduledPayment,
  scheduleBodySchema,
  weekdayLabels,
} from '@coffer/contracts/scheduled-payments';
import { Group, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { BusyButton } from '../../../components/busy-button.tsx';
import { ChoiceSelect } from '../../../components/choice-select.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { showApiErrorOnForm } from '../../../lib/forms.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { payeesForSchedulesQueryOptions, useSaveSchedule } from '../api.ts';

/** What the form holds: text, as inputs and selects keep it; `toBody` makes the request. */
type ScheduleValues = {
  payeeId: string;
  amount: string;
  reference: string;
  frequency: string;
  startDate: string;
  weekday: string;
  dayOfMonth: string;
  endType: string;
  endDate: string;
  occurrencesMax: string;
};

function optionalNumber(text: string): number | undefined {
  return text === '' ? undefined : Number(text);
}

/** The request body as the shared schema reads it; the schema decides what is missing. */
function toBody(values: ScheduleValues): Record<string, unknown> {
  return {
    payeeId: values.payeeId,
    amount: values.amount,
    ...(values.reference.trim() ? { reference: values.reference } : {}),
    frequency: values.frequency,
    startDate: values.startDate,
    weekday: values.frequency === 'weekly' ? optionalNumber(values.weekday) : undefined,
    dayOfMonth:
      values.frequency === 'monthly'
        ? values.dayOfMonth === 'last'
          ? 'last'
          : optionalNumber(values.dayOfMonth)
        : undefined,
    endType: values.frequency === 'once' ? 'never' : values.endType,
    endDate: values.endType === 'until' && values.endDate ? values.endDate : undefined,
    occurrencesMax: values.endType === 'count' ? optionalNumber(values.occurrencesMax) : undefined,
  };
}

function valuesOf(schedule: ScheduledPayment | null, payeeId: string | null): ScheduleValues {
  if (!schedule) {
    return {
      payeeId: payeeId ?? '',
      amount: '',
      reference: '',
      frequency: 'monthly',
      startDate: '',
      weekday: '1',
      dayOfMonth: '1',
      endType: 'never',
      endDate: '',
      occurrencesMax: '',
    };
  }
  return {
    payeeId: schedule.payeeId,
    amount: toDecimalString(schedule.amountMinor, toCurrencyCode(schedule.currency)),
    reference: schedule.reference ?? '',
    frequency: schedule.frequency,
    startDate: schedule.startDate,
    weekday: String(schedule.weekday ?? 1),
    dayOfMonth: String(schedule.dayOfMonth ?? 1),
    endType: schedule.endType,
    endDate: schedule.endDate ?? '',
    occurrencesMax: schedule.occurrencesMax === null ? '' : String(schedule.occurrencesMax),
  };
}

const frequencyOptions = [
  { value: 'once', label: 'Once, on a date' },
  { value: 'weekly', label: 'Every week' },
  { value: 'monthly', label: 'Every month' },
];
const weekdayOptions = weekdayLabels.map((label, index) => ({
  value: String(index + 1),
  label,
}));
const dayOptions = [
  ...Array.from({ length: dayOfMonthMax }, (_, index) => ({
    value: String(index + 1),
    label: `Day ${index + 1}${index + 1 >= 29 ? ' (the last day when shorter)' : ''}`,
  })),
  { value: 'last', label: 'Last day of the month' },
];
const endOptions = [
  { value: 'never', label: 'Until I cancel it' },
  { value: 'until', label: 'Until a date' },
  { value: 'count', label: 'After a number of payments' },
];

/**
 * Creates a schedule to a saved payee, or edits one from its next occurrence on. Checked
 * by the API's own schema (`scheduleBodySchema`) before it is sent; the server adds what
 * only it knows (the payee is theirs, the date is not past in their time zone).
 */
export function ScheduleForm({
  schedule,
  payeeId,
  onDone,
}: {
  schedule: ScheduledPayment | null;
  payeeId: string | null;
  onDone: () => void;
}) {
  const payees = useQuery(payeesForSchedulesQueryOptions);
  const save = useSaveSchedule(schedule?.id ?? null);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<ScheduleValues>({
    mode: 'controlled',
    initialValues: valuesOf(schedule, payeeId),
    validate: (values) => {
      const checked = scheduleBodySchema.safeParse(toBody(values));
      const errors: Record<string, string> = {};
      for (const issue of checked.error?.issues ?? []) {
        const field = String(issue.path[0] ?? 'amount');
        errors[field] ??= issue.message;
      }
      return errors;
    },
  });
  const payeeOptions = (payees.data?.items ?? []).map((payee) => ({
    value: payee.id,
    label: `${payee.nickname} — ${describePayeeTarget(payee.target)}`,
  }));
  const { frequency, endType } = form.values;

  const onSubmit = form.onSubmit((values) => {
    setFormError(null);
    const body: ScheduleBody = scheduleBodySchema.parse(toBody(values));
    save.mutate(body, {
      onSuccess: () => {
        showSuccessToast(schedule ? 'Scheduled payment changed' : 'Payment scheduled');
        onDone();
      },
      onError: (error) =>
        setFormError(
          showApiErrorOnForm(form, error, {
            otherFailureMessage: 'The payment could not be scheduled. Please try again.',
          }),
        ),
    });
  });

  return (
    <form noValidate onSubmit={onSubmit} aria-label={schedule ? 'Edit schedule' : 'New schedule'}>
      <Stack gap="md">
        <FormAlert message={formError} />
        <ChoiceSelect
          label="Pay to"
          placeholder={payees.isPending ? 'Loading payees…' : 'Choose a saved payee'}
          data={payeeOptions}
          required
          {...form.getInputProps('payeeId')}
        />
        <TextInput
          label="Amount"
          inputMode="decimal"
          required
          description={schedule ? 'Applies from the next payment on' : undefined}
          {...form.getInputProps('amount')}
        />
        <TextInput label="Reference (optional)" {...form.getInputProps('reference')} />
        <ChoiceSelect
          label="How often"
          placeholder="Choose how often"
          data={frequencyOptions}
          {...form.getInputProps('frequency')}
        />
        <TextInput
          type="date"
          label={frequency === 'once' ? 'Date' : 'First payment on or after'}
          required
          {...form.getInputProps('startDate')}
        />
        {frequency === 'weekly' && (
          <ChoiceSelect
            label="Day of the week"
            placeholder="Choose a day"
            data={weekdayOptions}
            {...form.getInputProps('weekday')}
          />
        )}
        {frequency === 'monthly' && (
          <ChoiceSelect
            label="Day of the month"
            placeholder="Choose a day"
            data={dayOptions}
            {...form.getInputProps('dayOfMonth')}
          />
        )}
        {frequency !== 'once' && (
          <ChoiceSelect
            label="Ends"
            placeholder="Choose when it ends"
            data={endOptions}
            {...form.getInputProps('endType')}
          />
        )}
        {frequency !== 'once' && endType === 'until' && (
          <TextInput type="date" label="Last date" {...form.getInputProps('endDate')} />
        )}
        {frequency !== 'once' && endType === 'count' && (
          <TextInput
            type="number"
            label="Number of payments"
            min={1}
            max={occurrencesCountMax}
            {...form.getInputProps('occurrencesMax')}
          />
        )}
        <Group justify="flex-end">
          <BusyButton isBusy={save.isPending} busyLabel="Saving...">
            {schedule ? 'Save changes' : 'Schedule payment'}
          </BusyButton>
        </Group>
      </Stack>
    </form>
  );
}
