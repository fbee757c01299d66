import type { Loan } from '@coffer/contracts/loans';
import { useLingui } from '@lingui/react/macro';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { NothingFound } from '../../../components/query-states.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { LoanStatusBadge } from './loan-status-badge.tsx';

/** Loan History: amount, months, status, date; a declined one says why. */
export function LoanHistoryTable({ loans }: { loans: Loan[] }) {
  const { t } = useLingui();
  if (loans.length === 0) return <NothingFound title={t`No loan history available`} />;
  const columns: Column<Loan>[] = [
    {
      key: 'amount',
      header: t`Amount`,
      cell: (loan) => formatAmountMinor(loan.amountMinor, loan.currency),
    },
    { key: 'months', header: t`Months`, cell: (loan) => String(loan.months) },
    {
      key: 'status',
      header: t`Status`,
      cell: (loan) => <LoanStatusBadge status={loan.status} isOverdue={loan.isOverdue} />,
    },
    { key: 'date', header: t`Date`, cell: (loan) => formatDate(loan.createdAt) },
    {
      key: 'reason',
      header: t`Decision`,
      cell: (loan) => loan.decisionReason ?? '',
      isEmpty: (loan) => !loan.decisionReason,
    },
  ];
  return (
    <DataTable
      label={t`Loan history`}
      columns={columns}
      rows={loans}
      rowKey={(loan) => loan.id}
      minWidth={560}
    />
  );
}
