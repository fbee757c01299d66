import type { BulkPayment, BulkPaymentStatus } from '@coffer/contracts/bulk-payments';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Button } from '@mantine/core';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { formatAmountMinor } from '../../../lib/money.ts';

const statusLabels: Record<BulkPaymentStatus, { label: MessageDescriptor; color: string }> = {
  checked: { label: msg`Waiting for confirmation`, color: 'gray' },
  paying: { label: msg`Paying`, color: 'blue' },
  done: { label: msg`Done`, color: 'green' },
};

/** Files with their status and counts; `onOpen` (the customer's page) adds an Open button. */
export function BulkPaymentsTable({
  items,
  onOpen,
}: {
  items: BulkPayment[];
  onOpen?: (bulkPaymentId: string) => void;
}) {
  const { t, i18n } = useLingui();
  const columns: Column<BulkPayment>[] = [
    { key: 'created', header: t`Uploaded`, cell: (row) => formatDateTime(row.createdAt) },
    {
      key: 'status',
      header: t`Status`,
      cell: (row) => (
        <Badge variant="light" color={statusLabels[row.status].color}>
          {i18n._(statusLabels[row.status].label)}
        </Badge>
      ),
    },
    { key: 'lines', header: t`Payments`, align: 'right', cell: (row) => row.lineCount },
    {
      key: 'total',
      header: t`Total`,
      align: 'right',
      cell: (row) => formatAmountMinor(row.totalMinor, row.currency),
    },
    {
      key: 'result',
      header: t`Paid / refused`,
      align: 'right',
      cell: (row) => `${row.paidCount} / ${row.refusedCount}`,
    },
  ];
  if (onOpen) {
    columns.push({
      key: 'open',
      header: t`File`,
      cell: (row) => (
        <Button size="xs" variant="default" onClick={() => onOpen(row.id)}>
          <Trans>Open</Trans>
        </Button>
      ),
    });
  }
  return (
    <DataTable
      label={t`Bulk payment files`}
      columns={columns}
      rows={items}
      rowKey={(row) => row.id}
      minWidth={640}
    />
  );
}
