import type { MoneyRequest } from '@coffer/contracts/admin';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Badge } from '@mantine/core';

const moneyRequestStatuses: Record<
  MoneyRequest['status'],
  { label: MessageDescriptor; color: string }
> = {
  pending_approval: { label: msg`Pending approval`, color: 'yellow' },
  posted: { label: msg`Posted`, color: 'green' },
  rejected: { label: msg`Rejected`, color: 'red' },
  cancelled: { label: msg`Cancelled`, color: 'gray' },
};

export function MoneyRequestStatusBadge({ status }: { status: MoneyRequest['status'] }) {
  const { i18n } = useLingui();
  const { label, color } = moneyRequestStatuses[status];
  return (
    <Badge color={color} variant="light" style={{ flexShrink: 0, minWidth: 'max-content' }}>
      {i18n._(label)}
    </Badge>
  );
}

export const moneyRequestDirectionLabels: Record<MoneyRequest['direction'], MessageDescriptor> = {
  deposit: msg`Deposit`,
  debit_adjustment: msg`Debit adjustment`,
};
