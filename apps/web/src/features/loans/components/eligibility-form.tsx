import { toCurrencyCode } from '@coffer/contracts/currencies';
import { type EligibilityBody, eligibilityBodySchema, loanMessages } from '@coffer/contracts/loans';
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
import { formatAmountMinor, minorUnitStep } from '../../../lib/money.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { setEligibility } from '../api.ts';

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
  eligibility: { amountMinor: bigint; setAt: string; reason?: string } | null;
  onDone?: () => void;
}) {
  const headingId = useId();
  const currency = toCurrencyCode(currencyCode);
  const form = useForm({
    mode: 'controlled',
    initialValues: { amount: '', reason: '', staffNote: '' },
    validate: contractResolver(eligibilityBodySchema),
  });
  const action = useStaffAction({
    mutationFn: (body: EligibilityBody) => setEligibility(userId, body),
    onDone: () => {
      showSuccessToast('Loan eligibility updated');
      form.reset();
      onDone?.();
    },
    describeError: (error) =>
      showApiErrorOnForm(form, error, { otherFailureMessage: 'Failed to update eligibility' }),
  });
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={3} id={headingId}>
          Loan eligibility
        </Title>
        <Text size="sm">
          {eligibility
            ? `${formatAmountMinor(eligibility.amountMinor, currency)}, set ${formatDate(eligibility.setAt)}${eligibility.reason ? `: ${eligibility.reason}` : ''}`
            : loanMessages.notAssessed}
        </Text>
        <form
          noValidate
          onSubmit={form.onSubmit((values) =>
            action.submit({
              amount: values.amount.trim(),
              reason: values.reason.trim(),
              ...(values.staffNote.trim() ? { staffNote: values.staffNote.trim() } : {}),
            }),
          )}
        >
          <Stack gap="sm">
            <FormAlert message={action.formError} />
            <AmountInput
              label="Approved eligibility"
              description={`In steps of ${minorUnitStep(currency)}`}
              currency={currency}
              {...form.getInputProps('amount')}
            />
            <ReasonField
              label="Reason for the customer"
              description={customerSeesThis}
              {...form.getInputProps('reason')}
            />
            <Textarea
              label="Note for staff only (optional)"
              description="Kept in the audit log; never shown to the customer."
              autosize
              minRows={2}
              maxRows={6}
              maxLength={500}
              {...form.getInputProps('staffNote')}
            />
            <Group justify="flex-end">
              <BusyButton isBusy={action.isPending} busyLabel="Saving...">
                Set eligibility
              </BusyButton>
            </Group>
          </Stack>
        </form>
      </Stack>
    </Card>
  );
}
