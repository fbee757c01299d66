import { moneyRequestBodySchema, moneyRequestReasonLengthMax } from '@coffer/contracts/admin';
import { type CurrencyCode, toCurrencyCode } from '@coffer/contracts/currencies';
import { externalReferenceLengthMax } from '@coffer/contracts/ledger';
import { Card, Group, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useId, useState } from 'react';
import { z } from 'zod/mini';
import { BusyButton } from '../../../components/busy-button.tsx';
import { SegmentedChoice } from '../../../components/segmented-choice.tsx';
import { adminQueryRoot } from '../../../lib/back-office.ts';
import { contractResolver } from '../../../lib/forms.ts';
import {
  formatAmountMinor,
  minorUnitStep,
  positiveAmountMinorOf,
  positiveAmountSchemaFor,
} from '../../../lib/money.ts';
import { useMe } from '../../../lib/session.ts';
import { showErrorToast, showSuccessToast } from '../../../lib/toasts.ts';
import { useMoneyAction } from '../../../lib/use-money-action.ts';
import { createMoneyRequest, type MoneyRequestDirection } from '../api.ts';

const modes: { value: MoneyRequestDirection; label: string }[] = [
  { value: 'deposit', label: 'Record deposit' },
  { value: 'debit_adjustment', label: 'Debit adjustment' },
];

type Values = { amount: string; externalReference: string; reason: string };

function formSchemaFor(currency: CurrencyCode) {
  return z.extend(moneyRequestBodySchema, {
    amount: positiveAmountSchemaFor(moneyRequestBodySchema.shape.amount, currency, 'moneyRequest'),
  });
}

/** Says before submitting whether the entry posts at once or waits for a second admin. */
function postingHint(options: {
  isAdmin: boolean;
  amountMinor: bigint | null;
  thresholdMinor: bigint;
  dailyTotalMinor: bigint;
  currency: CurrencyCode;
}): string {
  if (!options.isAdmin) return 'An admin must approve this before it posts.';
  const [threshold, dailyTotal] = [options.thresholdMinor, options.dailyTotalMinor].map(
    (amountMinor) => formatAmountMinor(amountMinor, options.currency, { currencyDisplay: 'code' }),
  );
  const dailyTotalNote = `Once your postings at once today pass ${dailyTotal}, every one waits.`;
  if (options.amountMinor === null) {
    return `Up to ${threshold} posts at once; a larger amount waits for a second admin. ${dailyTotalNote}`;
  }
  return options.amountMinor > options.thresholdMinor
    ? `Above ${threshold}: this waits for a second admin to approve it.`
    : `Up to ${threshold}: this posts at once. ${dailyTotalNote}`;
}

export type AccountActionsTarget = {
  userId: string;
  username: string;
  currency: string;
  availableMinor: bigint;
  /** The operator's figures in this currency; null: every posting waits for a second admin. */
  fourEyesThresholdMinor: bigint | null;
  fourEyesDailyTotalMinor: bigint | null;
};

/** A further Account Actions mode another feature provides ("Disburse loan"), with its own form. */
export type OtherAccountAction = { value: string; label: string; form: ReactNode };

/**
 * Account Actions: record a deposit or a debit adjustment, or one of `otherActions`. Each
 * submission carries one Idempotency-Key; a retry after a dropped connection reuses it, so
 * it cannot post twice.
 */
export function AccountActionsCard({
  target,
  otherActions = [],
}: {
  target: AccountActionsTarget;
  otherActions?: OtherAccountAction[];
}) {
  const queryClient = useQueryClient();
  const me = useMe();
  const headingId = useId();
  const currency = toCurrencyCode(target.currency);
  const thresholdMinor = target.fourEyesThresholdMinor ?? 0n;
  const dailyTotalMinor = target.fourEyesDailyTotalMinor ?? 0n;
  const [mode, setMode] = useState<string>('deposit');
  const otherAction = otherActions.find((action) => action.value === mode);
  const isDeposit = mode === 'deposit';
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: { amount: '', externalReference: '', reason: '' },
    validate: contractResolver(formSchemaFor(currency)),
  });
  const record = useMoneyAction({
    send: (
      request: {
        direction: MoneyRequestDirection;
        body: { amount: string; externalReference?: string; reason: string };
      },
      key,
    ) => createMoneyRequest(target.userId, request.direction, request.body, key),
    onSent: async (saved) => {
      const what = saved.direction === 'deposit' ? 'Deposit' : 'Debit adjustment';
      const amount = formatAmountMinor(saved.amountMinor, saved.currency, {
        currencyDisplay: 'code',
      });
      showSuccessToast(
        saved.status === 'posted'
          ? `${what} recorded: ${amount}`
          : `${what} submitted for approval: ${amount}`,
      );
      form.reset();
      await queryClient.invalidateQueries({ queryKey: adminQueryRoot });
    },
    onRefused: (error) => {
      if (error.fields.amount) form.setFieldError('amount', error.fields.amount);
      else if (error.code === 'insufficient_funds') form.setFieldError('amount', error.message);
      return false;
    },
    showFailure: (message) => showErrorToast(`Transaction failed: ${message}`),
  });

  const amountMinor = positiveAmountMinorOf(form.values.amount, currency);
  const submitLabel = isDeposit ? 'Record deposit' : 'Record debit adjustment';

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Title order={2} id={headingId} mb="md">
        Account Actions
      </Title>
      <Stack gap="md">
        <SegmentedChoice
          label="Account action"
          data={[
            ...modes.slice(0, 1),
            ...otherActions.map(({ value, label }) => ({ value, label })),
            ...modes.slice(1),
          ]}
          value={mode}
          onChange={(value) => {
            setMode(value);
            form.clearErrors();
          }}
          isFullWidth
          // Three modes do not fit side by side on a phone.
          isStackedOnPhone
        />
        {otherAction ? (
          otherAction.form
        ) : (
          <form
            noValidate
            onSubmit={form.onSubmit((values) => {
              const body = {
                amount: values.amount.trim(),
                reason: values.reason.trim(),
                ...(isDeposit && values.externalReference.trim() !== ''
                  ? { externalReference: values.externalReference.trim() }
                  : {}),
              };
              record.submit({ direction: isDeposit ? 'deposit' : 'debit_adjustment', body });
            })}
          >
            <Stack gap="md">
              <TextInput
                label="Amount"
                type="number"
                inputMode="decimal"
                required
                min={minorUnitStep(currency)}
                step={minorUnitStep(currency)}
                rightSection={
                  <Text size="sm" c="dimmed">
                    {currency}
                  </Text>
                }
                rightSectionWidth={56}
                description={
                  isDeposit
                    ? undefined
                    : `Available: ${formatAmountMinor(target.availableMinor, currency, { currencyDisplay: 'code' })}`
                }
                // A scroll wheel over a focused number field would change the amount unseen.
                onWheel={(event) => event.currentTarget.blur()}
                {...form.getInputProps('amount')}
              />
              {isDeposit && (
                <TextInput
                  label="External reference"
                  description="The bank transfer or cash receipt this deposit comes from"
                  maxLength={externalReferenceLengthMax}
                  {...form.getInputProps('externalReference')}
                />
              )}
              <Textarea
                label="Reason"
                required
                autosize
                minRows={2}
                maxRows={6}
                maxLength={moneyRequestReasonLengthMax}
                {...form.getInputProps('reason')}
              />
              <Group justify="space-between" align="center" gap="sm">
                <Text size="sm" c="dimmed" aria-live="polite" style={{ flex: '1 1 16rem' }}>
                  {postingHint({
                    isAdmin: me?.role === 'admin',
                    amountMinor,
                    thresholdMinor,
                    dailyTotalMinor,
                    currency,
                  })}
                </Text>
                <BusyButton isBusy={record.isPending} busyLabel="Recording...">
                  {submitLabel}
                </BusyButton>
              </Group>
            </Stack>
          </form>
        )}
      </Stack>
    </Card>
  );
}
