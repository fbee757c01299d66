import type { Instalment, LoanStatus } from '@coffer/contracts/loans';
import { Badge } from '@mantine/core';

/** PRODUCT.md: approved and repaid green, declined red, pending yellow. */
const statusLook: Record<LoanStatus, { label: string; color: string }> = {
  pending: { label: 'Pending', color: 'yellow' },
  approved: { label: 'Approved', color: 'green' },
  declined: { label: 'Declined', color: 'red' },
  disbursed: { label: 'Active', color: 'blue' },
  repaid: { label: 'Repaid', color: 'green' },
};

export function LoanStatusBadge({
  status,
  isOverdue = false,
}: {
  status: LoanStatus;
  isOverdue?: boolean;
}) {
  const look = isOverdue ? { label: 'Overdue', color: 'red' } : statusLook[status];
  return (
    <Badge color={look.color} variant="light" style={{ flexShrink: 0, minWidth: 'max-content' }}>
      {look.label}
    </Badge>
  );
}

const instalmentLook: Record<Instalment['status'], { label: string; color: string }> = {
  paid: { label: 'Paid', color: 'green' },
  due: { label: 'Due today', color: 'yellow' },
  overdue: { label: 'Overdue', color: 'red' },
  upcoming: { label: 'Upcoming', color: 'gray' },
};

export function InstalmentStatusBadge({ status }: { status: Instalment['status'] }) {
  const look = instalmentLook[status];
  return (
    <Badge color={look.color} variant="light" style={{ flexShrink: 0, minWidth: 'max-content' }}>
      {look.label}
    </Badge>
  );
}
