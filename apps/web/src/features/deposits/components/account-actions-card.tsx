import { moneyRequestBodySchema, moneyRequestReasonLengthMax } from '@coffer/contracts/admin';
import { type CurrencyCode, toCurrencyCode } from '@coffer/contracts/currencies';
import { externalReferenceLengthMax } from '@coffer/contracts/ledger';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
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

const modes: { value: MoneyRequestDirection; label: MessageDescriptor }[] = [
  { value: 'deposit', label: msg`Record deposit` },
  { value: 'debit_adjustment', label: msg`Debit adjustment` },
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
}): MessageDescriptor {
  if (!options.isAdmin) return msg`An admin must approve this before it posts.`;
  const asCode = (amountMinor: bigint) =>
    formatAmountMinor(amountMinor, options.currency, { currencyDisplay: 'code' });
  const threshold = asCode(options.thresholdMinor);
  const dailyTotal = asCode(options.dailyTotalMinor);
  if (options.amountMinor === null) {
    return msg`Up to ${threshold} posts at once; a larger amount waits for a second admin. Once your postings at once today pass ${dailyTotal}, every one waits.`;
  }
  return options.amountMinor > options.thresholdMinor
    ? msg`Above ${threshold}: this waits for a second admin to approve it.`
    : msg`Up to ${threshold}: this posts at once. Once your postings at once today pass ${dailyTotal}, every one waits.`;
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
  const { t, i18n } = useLingui();
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
      const amount = formatAmountMinor(saved.amountMinor, saved.currency, {
        currencyDisplay: 'code',
      });
      const isPosted = saved.status === 'posted';
      showSuccessToast(
        saved.direction === 'deposit'
          ? isPosted
            ? t`Deposit recorded: ${amount}`
            : t`Deposit submitted for approval: ${amount}`
          : isPosted
            ? t`Debit adjustment recorded: ${amount}`
            : t`Debit adjustment submitted for approval: ${amount}`,
      );
      form.reset();
      await queryClient.invalidateQueries({ queryKey: adminQueryRoot });
    },
    onRefused: (error) => {
      if (error.fields.amount) form.setFieldError('amount', error.fields.amount);
      else if (error.code === 'insufficient_funds') form.setFieldError('amount', error.message);
      return false;
    },
    showFailure: (message) => showErrorToast(t`Transaction failed: ${message}`),
  });

  const amountMinor = positiveAmountMinorOf(form.values.amount, currency);
  const submitLabel = isDeposit ? t`Record deposit` : t`Record debit adjustment`;
  const available = formatAmountMinor(target.availableMinor, currency, { currencyDisplay: 'code' });

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Title order={2} id={headingId} mb="md">
        <Trans>Account Actions</Trans>
      </Title>
      <Stack gap="md">
        <SegmentedChoice
          label={t`Account action`}
          data={[
            ...modes.slice(0, 1).map(({ value, label }) => ({ value, label: i18n._(label) })),
            ...otherActions.map(({ value, label }) => ({ value, label })),
            ...modes.slice(1).map(({ value, label }) => ({ value, label: i18n._(label) })),
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
                // A number field's value is plain decimals in every language already.
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
                label={t`Amount`}
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
                description={isDeposit ? undefined : t`Available: ${available}`}
                // A scroll wheel over a focused number field would change the amount unseen.
                onWheel={(event) => event.currentTarget.blur()}
                {...form.getInputProps('amount')}
              />
              {isDeposit && (
                <TextInput
                  label={t`External reference`}
                  description={t`The bank transfer or cash receipt this deposit comes from`}
                  maxLength={externalReferenceLengthMax}
                  {...form.getInputProps('externalReference')}
                />
              )}
              <Textarea
                label={t`Reason`}
                required
                autosize
                minRows={2}
                maxRows={6}
                maxLength={moneyRequestReasonLengthMax}
                {...form.getInputProps('reason')}
              />
              <Group justify="space-between" align="center" gap="sm">
                <Text size="sm" c="dimmed" aria-live="polite" style={{ flex: '1 1 16rem' }}>
                  {i18n._(
                    postingHint({
                      isAdmin: me?.role === 'admin',
                      amountMinor,
                      thresholdMinor,
                      dailyTotalMinor,
                      currency,
                    }),
                  )}
                </Text>
                <BusyButton isBusy={record.isPending} busyLabel={t`Recording...`}>
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
