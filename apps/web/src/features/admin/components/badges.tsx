import type { MoneyRequest } from '@coffer/contracts/admin';
import type { Role } from '@coffer/contracts/auth';
import { Badge } from '@mantine/core';

export function AccountStatusBadge({ isFrozen }: { isFrozen: boolean }) {
  return isFrozen ? (
    <Badge color="red" variant="light">
      Frozen
    </Badge>
  ) : (
    <Badge color="green" variant="light">
      Active
    </Badge>
  );
}

export const roleLabels: Record<Role, string> = {
  customer: 'Customer',
  support: 'Support',
  admin: 'Admin',
};

/** Marks staff in lists of people; customers carry no badge. */
export function StaffRoleBadge({ role }: { role: Role }) {
  if (role === 'customer') return null;
  return (
    <Badge color="gray" variant="outline" size="sm">
      {roleLabels[role]}
    </Badge>
  );
}

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
