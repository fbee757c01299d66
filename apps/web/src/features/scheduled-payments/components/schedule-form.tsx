import { toCurrencyCode } from '@coffer/contracts/currencies';
import { toDecimalString } from '@coffer/contracts/money';
import {
  dayOfMonthMax,
  occurrencesCountMax,
  type ScheduleBody,
  type ScheduledPayment,
  scheduleBodySchema,
} from '@coffer/contracts/scheduled-payments';
import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { Group, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { BusyButton } from '../../../components/busy-button.tsx';
import { ChoiceSelect } from '../../../components/choice-select.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { showApiErrorOnForm } from '../../../lib/forms.ts';
import { amountTextForApi } from '../../../lib/money.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { payeesForSchedulesQueryOptions, useSaveSchedule } from '../api.ts';
import { payeeLine } from '../payee-line.ts';
import { weekdayName } from '../weekdays.ts';

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
    amount: amountTextForApi(values.amount),
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

/** The choices of the form's selects, in the page's language. */
function choicesOf(i18n: I18n) {
  const frequency = [
    { value: 'once', label: i18n._(msg`Once, on a date`) },
    { value: 'weekly', label: i18n._(msg`Every week`) },
    { value: 'monthly', label: i18n._(msg`Every month`) },
  ];
  const weekdays = Array.from({ length: 7 }, (_, index) => ({
    value: String(index + 1),
    label: weekdayName(index + 1),
  }));
  const days = [
    ...Array.from({ length: dayOfMonthMax }, (_, index) => {
      const day = index + 1;
      return {
        value: String(day),
        label:
          day >= 29 ? i18n._(msg`Day ${day} (the last day when shorter)`) : i18n._(msg`Day ${day}`),
      };
    }),
    { value: 'last', label: i18n._(msg`Last day of the month`) },
  ];
  const ends = [
    { value: 'never', label: i18n._(msg`Until I cancel it`) },
    { value: 'until', label: i18n._(msg`Until a date`) },
    { value: 'count', label: i18n._(msg`After a number of payments`) },
  ];
  return { frequency, weekdays, days, ends };
}

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
  const { t, i18n } = useLingui();
  const choices = choicesOf(i18n);
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
  const payeeOptions = (payees.data?.items ?? []).map((payee) => {
    const line = payeeLine(payee);
    return { value: payee.id, label: typeof line === 'string' ? line : i18n._(line) };
  });
  const { frequency, endType } = form.values;

  const onSubmit = form.onSubmit((values) => {
    setFormError(null);
    const body: ScheduleBody = scheduleBodySchema.parse(toBody(values));
    save.mutate(body, {
      onSuccess: () => {
        showSuccessToast(schedule ? t`Scheduled payment changed` : t`Payment scheduled`);
        onDone();
      },
      onError: (error) =>
        setFormError(
          showApiErrorOnForm(form, error, {
            otherFailureMessage: t`The payment could not be scheduled. Please try again.`,
          }),
        ),
    });
  });

  return (
    <form noValidate onSubmit={onSubmit} aria-label={schedule ? t`Edit schedule` : t`New schedule`}>
      <Stack gap="md">
        <FormAlert message={formError} />
        <ChoiceSelect
          label={t`Pay to`}
          placeholder={payees.isPending ? t`Loading payees…` : t`Choose a saved payee`}
          data={payeeOptions}
          required
          {...form.getInputProps('payeeId')}
        />
        <TextInput
          label={t`Amount`}
          inputMode="decimal"
          required
          description={schedule ? t`Applies from the next payment on` : undefined}
          {...form.getInputProps('amount')}
        />
        <TextInput label={t`Reference (optional)`} {...form.getInputProps('reference')} />
        <ChoiceSelect
          label={t`How often`}
          placeholder={t`Choose how often`}
          data={choices.frequency}
          {...form.getInputProps('frequency')}
        />
        <TextInput
          type="date"
          label={frequency === 'once' ? t`Date` : t`First payment on or after`}
          required
          {...form.getInputProps('startDate')}
        />
        {frequency === 'weekly' && (
          <ChoiceSelect
            label={t`Day of the week`}
            placeholder={t`Choose a day`}
            data={choices.weekdays}
            {...form.getInputProps('weekday')}
          />
        )}
        {frequency === 'monthly' && (
          <ChoiceSelect
            label={t`Day of the month`}
            placeholder={t`Choose a day`}
            data={choices.days}
            {...form.getInputProps('dayOfMonth')}
          />
        )}
        {frequency !== 'once' && (
          <ChoiceSelect
            label={t`Ends`}
            placeholder={t`Choose when it ends`}
            data={choices.ends}
            {...form.getInputProps('endType')}
          />
        )}
        {frequency !== 'once' && endType === 'until' && (
          <TextInput type="date" label={t`Last date`} {...form.getInputProps('endDate')} />
        )}
        {frequency !== 'once' && endType === 'count' && (
          <TextInput
            type="number"
            label={t`Number of payments`}
            min={1}
            max={occurrencesCountMax}
            {...form.getInputProps('occurrencesMax')}
          />
        )}
        <Group justify="flex-end">
          <BusyButton isBusy={save.isPending} busyLabel={t`Saving...`}>
            {schedule ? t`Save changes` : t`Schedule payment`}
          </BusyButton>
        </Group>
      </Stack>
    </form>
  );
}
