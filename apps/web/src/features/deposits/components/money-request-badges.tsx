import type { MoneyRequest } from '@coffer/contracts/admin';
import { Badge } from '@mantine/core';

const moneyRequestStatuses: Record<MoneyRequest['status'], { label: string; color: string }> = {
  pending_approval: { label: 'Pending approval', color: 'yellow' },
  posted: { label: 'Posted', color: 'green' },
  rejected: { label: 'Rejected', color: 'red' },
  cancelled: { label: 'Cancelled', color: 'gray' },
};

export function MoneyRequestStatusBadge({ status }: { status: MoneyRequest['status'] }) {
  const { label, color } = moneyRequestStatuses[status];
  return (
    <Badge color={color} variant="light" style={{ flexShrink: 0, minWidth: 'max-content' }}>
      {label}
    </Badge>
  );
}

export const moneyRequestDirectionLabels: Record<MoneyRequest['direction'], string> = {
  deposit: 'Deposit',
  debit_adjustment: 'Debit adjustment',
};
