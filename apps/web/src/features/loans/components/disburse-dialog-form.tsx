import { type Loan, loanDecisionBodySchema } from '@coffer/contracts/loans';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ReasonField, StaffActionButtons } from '../../../components/staff-action-form.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { contractResolver } from '../../../lib/forms.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { useDisburseLoan } from './use-disburse-loan.ts';

/** The "to disburse" list's dialog: the loan, what paying out does, and the reason. */
export function DisburseForm({ loan, onClose }: { loan: Loan; onClose: () => void }) {
  const { t } = useLingui();
  const form = useForm({
    mode: 'controlled',
    initialValues: { reason: '' },
    validate: contractResolver(loanDecisionBodySchema),
  });
  const disburse = useDisburseLoan(onClose);
  const money = formatAmountMinor(loan.amountMinor, loan.currency);
  const username = loan.username;
  const months = loan.months;
  const approvedOn = loan.decidedAt ? formatDate(loan.decidedAt) : '';
  const requester = loan.disbursementRequestedBy?.username;
  return (
    <form
      noValidate
      onSubmit={form.onSubmit((values) =>
        disburse.submit({ loanId: loan.id, reason: values.reason.trim() }),
      )}
    >
      <Stack gap="md">
        <Text size="sm">
          <Trans>
            {username}: <bdi>{money}</bdi> over{' '}
            <Plural value={months} one="# month" other="# months" />, approved {approvedOn}.
          </Trans>
        </Text>
        <Text size="sm" c="dimmed">
          {requester
            ? t`${requester} asked for a second admin: disbursing credits ${money} to the wallet and fixes the schedule.`
            : t`Credits the wallet and fixes the schedule. Above the approval threshold, or from support, it waits for a second admin.`}
        </Text>
        <ReasonField data-autofocus {...form.getInputProps('reason')} />
        <StaffActionButtons
          onCancel={onClose}
          isBusy={disburse.isPending}
          busyLabel={t`Disbursing...`}
        >
          <Trans>Disburse loan</Trans>
        </StaffActionButtons>
      </Stack>
    </form>
  );
}
