import { type Loan, loanDecisionBodySchema } from '@coffer/contracts/loans';
import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { Group, Select, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { BusyButton } from '../../../components/busy-button.tsx';
import { ReasonField } from '../../../components/staff-action-form.tsx';
import { contractResolver } from '../../../lib/forms.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { useMe } from '../../../lib/session.ts';
import { customerLoansQueryOptions } from '../api.ts';
import { useDisburseLoan } from './use-disburse-loan.ts';

/**
 * Account Actions' "Disburse loan": against an approved loan only (picked here), for its
 * approved amount. Above the approval threshold the first admin asks and a second pays out.
 */
export function DisburseLoanForm({ userId }: { userId: string }) {
  const { t } = useLingui();
  const me = useMe();
  const overview = useQuery(customerLoansQueryOptions(userId));
  const approved = overview.data?.loans.filter((loan) => loan.status === 'approved') ?? [];
  const form = useForm({
    mode: 'controlled',
    initialValues: { loanId: '', reason: '' },
    validate: {
      loanId: (value) => (value ? null : t`Pick an approved loan`),
      reason: (value) => contractResolver(loanDecisionBodySchema)({ reason: value }).reason ?? null,
    },
  });
  const disburse = useDisburseLoan(() => form.reset());
  const chosen = approved.find((loan) => loan.id === form.values.loanId);
  const optionLabel = (loan: Loan) => {
    const amount = formatAmountMinor(loan.amountMinor, loan.currency, { currencyDisplay: 'code' });
    const months = loan.months;
    const requester = loan.disbursementRequestedBy?.username;
    return requester
      ? t`${amount} over ${plural(months, { one: '# month', other: '# months' })} (requested by ${requester})`
      : t`${amount} over ${plural(months, { one: '# month', other: '# months' })}`;
  };
  const chosenAmount = chosen ? formatAmountMinor(chosen.amountMinor, chosen.currency) : '';
  return (
    <form
      noValidate
      onSubmit={form.onSubmit((values) =>
        disburse.submit({ loanId: values.loanId, reason: values.reason.trim() }),
      )}
    >
      <Stack gap="md">
        <Select
          // A new list (one just disbursed) starts the field afresh rather than keep its label.
          key={approved.map((loan) => loan.id).join()}
          label={t`Approved loan`}
          required
          placeholder={approved.length === 0 ? t`No approved loan to disburse` : t`Pick a loan`}
          disabled={approved.length === 0}
          data={approved.map((loan) => ({ value: loan.id, label: optionLabel(loan) }))}
          {...form.getInputProps('loanId')}
        />
        <ReasonField {...form.getInputProps('reason')} />
        <Group justify="space-between" align="center" gap="sm">
          <Text size="sm" c="dimmed" style={{ flex: '1 1 16rem' }}>
            {chosen
              ? t`Credits ${chosenAmount} to the wallet and fixes the schedule.`
              : me?.role === 'admin'
                ? t`Up to the approval threshold this pays out at once; above it a second admin disburses.`
                : t`An admin must approve this before it pays out.`}
          </Text>
          <BusyButton
            isBusy={disburse.isPending}
            busyLabel={t`Disbursing...`}
            disabled={approved.length === 0}
          >
            {t`Disburse loan`}
          </BusyButton>
        </Group>
      </Stack>
    </form>
  );
}
