import { disputeProblemTypeLabels, type StaffDispute } from '@coffer/contracts/disputes';
import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { DisputeStatusBadge } from './dispute-status-badge.tsx';

function columnsFor(isCustomerShown: boolean): Column<StaffDispute>[] {
  return [
    {
      key: 'reference',
      header: 'Reference',
      cell: (row) => (
        <Anchor component={Link} to={`/admin/disputes/${row.reference}`} ff="monospace">
          {row.reference}
        </Anchor>
      ),
    },
    ...(isCustomerShown
      ? [
          {
            key: 'customer',
            header: 'Customer',
            cell: (row: StaffDispute) => (
              <Anchor component={Link} to={`/admin/users/${row.userId}`}>
                {row.username}
              </Anchor>
            ),
          },
        ]
      : []),
    { key: 'status', header: 'Status', cell: (row) => <DisputeStatusBadge status={row.status} /> },
    { key: 'type', header: 'Problem', cell: (row) => disputeProblemTypeLabels[row.problemType] },
    {
      key: 'amount',
      header: 'Amount',
      align: 'right',
      cell: (row) => formatAmountMinor(row.amountMinor, row.currency),
    },
    { key: 'filed', header: 'Filed', cell: (row) => formatDate(row.createdAt) },
    {
      key: 'transaction',
      header: 'Transaction',
      isEmpty: (row) => !row.linkedTransaction,
      cell: (row) =>
        row.linkedTransaction ? (
          <Text size="sm">{row.linkedTransaction.memo}</Text>
        ) : (
          <Text size="sm" c="dimmed">
            None linked
          </Text>
        ),
    },
  ];
}

/** Disputes for staff; each reference opens the case. */
export function StaffDisputesTable({
  label,
  disputes,
  isCustomerShown,
}: {
  label: string;
  disputes: StaffDispute[];
  isCustomerShown: boolean;
}) {
  return (
    <DataTable
      label={label}
      columns={columnsFor(isCustomerShown)}
      rows={disputes}
      rowKey={(row) => row.id}
    />
  );
}
