import type { BulkPayment, BulkPaymentStatus } from '@coffer/contracts/bulk-payments';
import { Badge, Button } from '@mantine/core';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { formatAmountMinor } from '../../../lib/money.ts';

const statusLabels: Record<BulkPaymentStatus, { label: string; color: string }> = {
  checked: { label: 'Waiting for confirmation', color: 'gray' },
  paying: { label: 'Paying', color: 'blue' },
  done: { label: 'Done', color: 'green' },
};

/** Files with their status and counts; `onOpen` (the customer's page) adds an Open button. */
export function BulkPaymentsTable({
  items,
  onOpen,
}: {
  items: BulkPayment[];
  onOpen?: (bulkPaymentId: string) => void;
}) {
  const columns: Column<BulkPayment>[] = [
    { key: 'created', header: 'Uploaded', cell: (row) => formatDateTime(row.createdAt) },
    {
      key: 'status',
      header: 'Status',
      cell: (row) => (
        <Badge variant="light" color={statusLabels[row.status].color}>
          {statusLabels[row.status].label}
        </Badge>
      ),
    },
    { key: 'lines', header: 'Payments', align: 'right', cell: (row) => row.lineCount },
    {
      key: 'total',
      header: 'Total',
      align: 'right',
      cell: (row) => formatAmountMinor(row.totalMinor, row.currency),
    },
    {
      key: 'result',
      header: 'Paid / refused',
      align: 'right',
      cell: (row) => `${row.paidCount} / ${row.refusedCount}`,
    },
  ];
  if (onOpen) {
    columns.push({
      key: 'open',
      header: 'File',
      cell: (row) => (
        <Button size="xs" variant="default" onClick={() => onOpen(row.id)}>
          Open
        </Button>
      ),
    });
  }
  return (
    <DataTable
      label="Bulk payment files"
      columns={columns}
      rows={items}
      rowKey={(row) => row.id}
      minWidth={640}
    />
  );
}
