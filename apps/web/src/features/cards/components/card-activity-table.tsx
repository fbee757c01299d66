import type { CardAuthorization } from '@coffer/contracts/cards';
import { useLingui } from '@lingui/react/macro';
import { Text } from '@mantine/core';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { AuthorizationStatusBadge, declineReasonLabels } from './card-badges.tsx';

/** A card's purchases, newest first: pending (held), completed, declined with the reason. */
export function CardActivityTable({ items }: { items: readonly CardAuthorization[] }) {
  const { t, i18n } = useLingui();
  const columns: Column<CardAuthorization>[] = [
    {
      key: 'merchant',
      header: t`Merchant`,
      cell: (authorization) => (
        <Text size="sm" fw={600}>
          {authorization.merchant}
        </Text>
      ),
    },
    {
      key: 'date',
      header: t`Date`,
      cell: (authorization) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(authorization.createdAt)}
        </Text>
      ),
    },
    {
      key: 'amount',
      header: t`Amount`,
      align: 'right',
      cell: (authorization) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatAmountMinor(authorization.amountMinor, authorization.currency)}
        </Text>
      ),
    },
    {
      key: 'status',
      header: t`Status`,
      cell: (authorization) => <AuthorizationStatusBadge status={authorization.status} />,
    },
    {
      key: 'reason',
      header: t`Reason`,
      isEmpty: (authorization) => authorization.declineReason === null,
      cell: (authorization) =>
        authorization.declineReason && (
          <Text size="sm" c="red.8">
            {i18n._(declineReasonLabels[authorization.declineReason])}
          </Text>
        ),
    },
  ];
  return (
    <DataTable
      label={t`Card activity`}
      columns={columns}
      rows={items}
      rowKey={(authorization) => authorization.id}
      minWidth={640}
    />
  );
}
