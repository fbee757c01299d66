import { type CardAuthorization, declineReasonLabels } from '@coffer/contracts/cards';
import { Text } from '@mantine/core';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { AuthorizationStatusBadge } from './card-badges.tsx';

const columns: Column<CardAuthorization>[] = [
  {
    key: 'merchant',
    header: 'Merchant',
    cell: (authorization) => (
      <Text size="sm" fw={600}>
        {authorization.merchant}
      </Text>
    ),
  },
  {
    key: 'date',
    header: 'Date',
    cell: (authorization) => (
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {formatDateTime(authorization.createdAt)}
      </Text>
    ),
  },
  {
    key: 'amount',
    header: 'Amount',
    align: 'right',
    cell: (authorization) => (
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {formatAmountMinor(authorization.amountMinor, authorization.currency)}
      </Text>
    ),
  },
  {
    key: 'status',
    header: 'Status',
    cell: (authorization) => <AuthorizationStatusBadge status={authorization.status} />,
  },
  {
    key: 'reason',
    header: 'Reason',
    isEmpty: (authorization) => authorization.declineReason === null,
    cell: (authorization) =>
      authorization.declineReason && (
        <Text size="sm" c="red.8">
          {declineReasonLabels[authorization.declineReason]}
        </Text>
      ),
  },
];

/** A card's purchases, newest first: pending (held), completed, declined with the reason. */
export function CardActivityTable({ items }: { items: readonly CardAuthorization[] }) {
  return (
    <DataTable
      label="Card activity"
      columns={columns}
      rows={items}
      rowKey={(authorization) => authorization.id}
      minWidth={640}
    />
  );
}
