import { type Loan, loanDecisionBodySchema } from '@coffer/contracts/loans';
import { Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ReasonField, StaffActionButtons } from '../../../components/staff-action-form.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { contractResolver } from '../../../lib/forms.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { useDisburseLoan } from './use-disburse-loan.ts';

/** The "to disburse" list's dialog: the loan, what paying out does, and the reason. */
export function DisburseForm({ loan, onClose }: { loan: Loan; onClose: () => void }) {
  const form = useForm({
    mode: 'controlled',
    initialValues: { reason: '' },
    validate: contractResolver(loanDecisionBodySchema),
  });
  const disburse = useDisburseLoan(onClose);
  const money = formatAmountMinor(loan.amountMinor, loan.currency);
  return (
    <form
      noValidate
      onSubmit={form.onSubmit((values) =>
        disburse.submit({ loanId: loan.id, reason: values.reason.trim() }),
      )}
    >
      <Stack gap="md">
        <Text size="sm">
          {loan.username}: {money} over {loan.months} months, approved{' '}
          {loan.decidedAt ? formatDate(loan.decidedAt) : ''}.
        </Text>
        <Text size="sm" c="dimmed">
          {loan.disbursementRequestedBy
            ? `${loan.disbursementRequestedBy.username} asked for a second admin: disbursing credits ${money} to the wallet and fixes the schedule.`
            : 'Credits the wallet and fixes the schedule. Above the approval threshold, or from support, it waits for a second admin.'}
        </Text>
        <ReasonField data-autofocus {...form.getInputProps('reason')} />
        <StaffActionButtons
          onCancel={onClose}
          isBusy={disburse.isPending}
          busyLabel="Disbursing..."
        >
          Disburse loan
        </StaffActionButtons>
      </Stack>
    </form>
  );
}
