import type { StaffDispute } from '@coffer/contracts/disputes';
import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { disputeProblemTypeLabels } from '../labels.ts';
import { DisputeStatusBadge } from './dispute-status-badge.tsx';

function columnsFor(i18n: I18n, isCustomerShown: boolean): Column<StaffDispute>[] {
  return [
    {
      key: 'reference',
      header: i18n._(msg`Reference`),
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
            header: i18n._(msg`Customer`),
            cell: (row: StaffDispute) => (
              <Anchor component={Link} to={`/admin/users/${row.userId}`}>
                {row.username}
              </Anchor>
            ),
          },
        ]
      : []),
    {
      key: 'status',
      header: i18n._(msg`Status`),
      cell: (row) => <DisputeStatusBadge status={row.status} />,
    },
    {
      key: 'type',
      header: i18n._(msg`Problem`),
      cell: (row) => i18n._(disputeProblemTypeLabels[row.problemType]),
    },
    {
      key: 'amount',
      header: i18n._(msg`Amount`),
      align: 'right',
      cell: (row) => formatAmountMinor(row.amountMinor, row.currency),
    },
    { key: 'filed', header: i18n._(msg`Filed`), cell: (row) => formatDate(row.createdAt) },
    {
      key: 'transaction',
      header: i18n._(msg`Transaction`),
      isEmpty: (row) => !row.linkedTransaction,
      cell: (row) =>
        row.linkedTransaction ? (
          <Text size="sm">{row.linkedTransaction.memo}</Text>
        ) : (
          <Text size="sm" c="dimmed">
            {i18n._(msg`None linked`)}
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
  const { i18n } = useLingui();
  return (
    <DataTable
      label={label}
      columns={columnsFor(i18n, isCustomerShown)}
      rows={disputes}
      rowKey={(row) => row.id}
    />
  );
}
