import { toCurrencyCode } from '@coffer/contracts/currencies';
import { type EligibilityBody, eligibilityBodySchema } from '@coffer/contracts/loans';
import { Trans, useLingui } from '@lingui/react/macro';
import { Card, Group, Stack, Text, Textarea, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useId } from 'react';
import { AmountInput } from '../../../components/amount-input.tsx';
import { BusyButton } from '../../../components/busy-button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import {
  customerSeesThis,
  ReasonField,
  useStaffAction,
} from '../../../components/staff-action-form.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { contractResolver, showApiErrorOnForm } from '../../../lib/forms.ts';
import { amountTextForApi, formatAmountMinor } from '../../../lib/money.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { setEligibility } from '../api.ts';
import { minorUnitStepText } from './step-text.ts';

type Eligibility = { amountMinor: bigint; setAt: string; reason?: string };

/** What is set now: the amount, when, and the reason where the whole overview is at hand. */
function EligibilityNow({ eligibility, currency }: { eligibility: Eligibility; currency: string }) {
  const amount = formatAmountMinor(eligibility.amountMinor, currency);
  const setOn = formatDate(eligibility.setAt);
  const reason = eligibility.reason;
  return reason ? (
    <Trans>
      <bdi>{amount}</bdi>, set {setOn}: {reason}
    </Trans>
  ) : (
    <Trans>
      <bdi>{amount}</bdi>, set {setOn}
    </Trans>
  );
}

/**
 * Staff set what the customer may borrow, with a reason the customer sees (the field says
 * so) and a note for staff only, kept in the audit log (both audited).
 */
export function EligibilityForm({
  userId,
  currency: currencyCode,
  eligibility,
  onDone,
}: {
  userId: string;
  currency: string;
  /** What is set now; the reason only where the whole overview is at hand. */
  eligibility: Eligibility | null;
  onDone?: () => void;
}) {
  const { t } = useLingui();
  const headingId = useId();
  const currency = toCurrencyCode(currencyCode);
  const step = minorUnitStepText(currency);
  const form = useForm({
    mode: 'controlled',
    initialValues: { amount: '', reason: '', staffNote: '' },
    validate: contractResolver(eligibilityBodySchema),
  });
  const action = useStaffAction({
    mutationFn: (body: EligibilityBody) => setEligibility(userId, body),
    onDone: () => {
      showSuccessToast(t`Loan eligibility updated`);
      form.reset();
      onDone?.();
    },
    describeError: (error) =>
      showApiErrorOnForm(form, error, { otherFailureMessage: t`Failed to update eligibility` }),
  });
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={3} id={headingId}>
          <Trans>Loan eligibility</Trans>
        </Title>
        <Text size="sm">
          {eligibility ? (
            <EligibilityNow eligibility={eligibility} currency={currency} />
          ) : (
            t`Not yet assessed`
          )}
        </Text>
        <form
          noValidate
          onSubmit={form.onSubmit((values) =>
            action.submit({
              amount: amountTextForApi(values.amount),
              reason: values.reason.trim(),
              ...(values.staffNote.trim() ? { staffNote: values.staffNote.trim() } : {}),
            }),
          )}
        >
          <Stack gap="sm">
            <FormAlert message={action.formError} />
            <AmountInput
              label={t`Approved eligibility`}
              description={t`In steps of ${step}`}
              currency={currency}
              {...form.getInputProps('amount')}
            />
            <ReasonField
              label={t`Reason for the customer`}
              description={customerSeesThis}
              {...form.getInputProps('reason')}
            />
            <Textarea
              label={t`Note for staff only (optional)`}
              description={t`Kept in the audit log; never shown to the customer.`}
              autosize
              minRows={2}
              maxRows={6}
              maxLength={500}
              {...form.getInputProps('staffNote')}
            />
            <Group justify="flex-end">
              <BusyButton isBusy={action.isPending} busyLabel={t`Saving...`}>
                <Trans>Set eligibility</Trans>
              </BusyButton>
            </Group>
          </Stack>
        </form>
      </Stack>
    </Card>
  );
}
