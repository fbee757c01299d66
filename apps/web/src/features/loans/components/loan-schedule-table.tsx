import type { Loan } from '@coffer/contracts/loans';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { formatUtcDay } from '../../../lib/dates.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { InstalmentStatusBadge } from './loan-status-badge.tsx';

type Row = Loan['instalments'][number];

/** The schedule fixed at disbursement (shortened by any payment ahead), paid / due / overdue. */
export function LoanScheduleTable({ loan }: { loan: Loan }) {
  const money = (amountMinor: bigint) => formatAmountMinor(amountMinor, loan.currency);
  const columns: Column<Row>[] = [
    {
      key: 'number',
      header: 'Instalment',
      cell: (row) => `#${row.number} · ${formatUtcDay(row.dueOn)}`,
    },
    {
      key: 'amount',
      header: 'Amount',
      align: 'right',
      cell: (row) => money(row.principalMinor + row.interestMinor),
    },
    {
      key: 'principal',
      header: 'Principal',
      align: 'right',
      cell: (row) => money(row.principalMinor),
    },
    {
      key: 'interest',
      header: 'Interest',
      align: 'right',
      cell: (row) => money(row.interestMinor),
    },
    { key: 'paid', header: 'Paid', align: 'right', cell: (row) => money(row.paidMinor) },
    {
      key: 'status',
      header: 'Status',
      cell: (row) => <InstalmentStatusBadge status={row.status} />,
    },
  ];
  return (
    <DataTable
      label="Repayment schedule"
      columns={columns}
      rows={loan.instalments}
      rowKey={(row) => String(row.number)}
      minWidth={640}
    />
  );
}
