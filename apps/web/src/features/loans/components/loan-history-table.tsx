import type { Loan } from '@coffer/contracts/loans';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { NothingFound } from '../../../components/query-states.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { LoanStatusBadge } from './loan-status-badge.tsx';

/** Loan History: amount, months, status, date; a declined one says why. */
export function LoanHistoryTable({ loans }: { loans: Loan[] }) {
  if (loans.length === 0) return <NothingFound title="No loan history available" />;
  const columns: Column<Loan>[] = [
    {
      key: 'amount',
      header: 'Amount',
      cell: (loan) => formatAmountMinor(loan.amountMinor, loan.currency),
    },
    { key: 'months', header: 'Months', cell: (loan) => String(loan.months) },
    {
      key: 'status',
      header: 'Status',
      cell: (loan) => <LoanStatusBadge status={loan.status} isOverdue={loan.isOverdue} />,
    },
    { key: 'date', header: 'Date', cell: (loan) => formatDate(loan.createdAt) },
    {
      key: 'reason',
      header: 'Decision',
      cell: (loan) => loan.decisionReason ?? '',
      isEmpty: (loan) => !loan.decisionReason,
    },
  ];
  return (
    <DataTable
      label="Loan history"
      columns={columns}
      rows={loans}
      rowKey={(loan) => loan.id}
      minWidth={560}
    />
  );
}
