import type { Loan } from '@coffer/contracts/loans';
import { useLingui } from '@lingui/react/macro';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { formatUtcDay } from '../../../lib/dates.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { InstalmentStatusBadge } from './loan-status-badge.tsx';

type Row = Loan['instalments'][number];

/** The schedule fixed at disbursement (shortened by any payment ahead), paid / due / overdue. */
export function LoanScheduleTable({ loan }: { loan: Loan }) {
  const { t } = useLingui();
  const money = (amountMinor: bigint) => formatAmountMinor(amountMinor, loan.currency);
  const columns: Column<Row>[] = [
    {
      key: 'number',
      header: t`Instalment`,
      cell: (row) => {
        const number = row.number;
        const dueOn = formatUtcDay(row.dueOn);
        return t`#${number} · ${dueOn}`;
      },
    },
    {
      key: 'amount',
      header: t`Amount`,
      align: 'right',
      cell: (row) => money(row.principalMinor + row.interestMinor),
    },
    {
      key: 'principal',
      header: t`Principal`,
      align: 'right',
      cell: (row) => money(row.principalMinor),
    },
    {
      key: 'interest',
      header: t`Interest`,
      align: 'right',
      cell: (row) => money(row.interestMinor),
    },
    { key: 'paid', header: t`Paid`, align: 'right', cell: (row) => money(row.paidMinor) },
    {
      key: 'status',
      header: t`Status`,
      cell: (row) => <InstalmentStatusBadge status={row.status} />,
    },
  ];
  return (
    <DataTable
      label={t`Repayment schedule`}
      columns={columns}
      rows={loan.instalments}
      rowKey={(row) => String(row.number)}
      minWidth={640}
    />
  );
}
