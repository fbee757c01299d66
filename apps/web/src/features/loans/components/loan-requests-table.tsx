import type { Loan } from '@coffer/contracts/loans';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Button, Group } from '@mantine/core';
import { Link } from 'react-router';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { useDialogTarget } from '../../../components/use-dialog-target.ts';
import { adminUserPath } from '../../../lib/back-office.ts';
import { formatDate } from '../../../lib/dates.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { useMe } from '../../../lib/session.ts';
import { type LoanDecision, LoanDecisionDialog } from './loan-decision-dialogs.tsx';
import { LoanStatusBadge } from './loan-status-badge.tsx';

/** Loan requests with Approve / Decline for admins: the queue and the customer's tab. */
export function LoanRequestsTable({
  loans,
  isCustomerShown = false,
}: {
  loans: Loan[];
  isCustomerShown?: boolean;
}) {
  const { t } = useLingui();
  const me = useMe();
  const dialog = useDialogTarget<LoanDecision>();
  const money = (loan: Loan, amountMinor: bigint) => formatAmountMinor(amountMinor, loan.currency);
  const columns: Column<Loan>[] = [
    ...(isCustomerShown
      ? [
          {
            key: 'customer',
            header: t`Customer`,
            cell: (loan: Loan) => (
              <Anchor component={Link} to={`${adminUserPath(loan.userId)}?tab=loans`}>
                {loan.username}
              </Anchor>
            ),
          },
        ]
      : []),
    { key: 'amount', header: t`Amount`, cell: (loan) => money(loan, loan.amountMinor) },
    { key: 'salary', header: t`Salary`, cell: (loan) => money(loan, loan.monthlySalaryMinor) },
    { key: 'months', header: t`Months`, cell: (loan) => String(loan.months) },
    { key: 'date', header: t`Request date`, cell: (loan) => formatDate(loan.createdAt) },
    { key: 'status', header: t`Status`, cell: (loan) => <LoanStatusBadge status={loan.status} /> },
    {
      key: 'actions',
      header: t`Actions`,
      isHeaderHidden: true,
      isEmpty: (loan) => loan.status !== 'pending' || me?.role !== 'admin',
      cell: (loan) =>
        loan.status === 'pending' && me?.role === 'admin' ? (
          <Group gap="xs" wrap="nowrap">
            <Button
              size="xs"
              onClick={(event) => dialog.open({ loan, decision: 'approve' }, event.currentTarget)}
            >
              <Trans>Approve</Trans>
            </Button>
            <Button
              size="xs"
              color="red"
              variant="light"
              onClick={(event) => dialog.open({ loan, decision: 'decline' }, event.currentTarget)}
            >
              <Trans>Decline</Trans>
            </Button>
          </Group>
        ) : null,
    },
  ];
  return (
    <>
      <DataTable
        label={t`Loan requests`}
        columns={columns}
        rows={loans}
        rowKey={(loan) => loan.id}
      />
      <LoanDecisionDialog target={dialog.target} {...dialog.dialogProps} />
    </>
  );
}
