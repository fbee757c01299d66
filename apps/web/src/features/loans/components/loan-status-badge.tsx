import type { Instalment, LoanStatus } from '@coffer/contracts/loans';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Badge } from '@mantine/core';

type Look = { label: MessageDescriptor; color: string };

/** PRODUCT.md: approved and repaid green, declined red, pending yellow. */
const statusLook: Record<LoanStatus, Look> = {
  pending: { label: msg`Pending`, color: 'yellow' },
  approved: { label: msg`Approved`, color: 'green' },
  declined: { label: msg`Declined`, color: 'red' },
  disbursed: { label: msg`Active`, color: 'blue' },
  repaid: { label: msg`Repaid`, color: 'green' },
};

const overdueLook: Look = { label: msg`Overdue`, color: 'red' };

function StatusBadge({ look }: { look: Look }) {
  const { i18n } = useLingui();
  return (
    <Badge color={look.color} variant="light" style={{ flexShrink: 0, minWidth: 'max-content' }}>
      {i18n._(look.label)}
    </Badge>
  );
}

export function LoanStatusBadge({
  status,
  isOverdue = false,
}: {
  status: LoanStatus;
  isOverdue?: boolean;
}) {
  return <StatusBadge look={isOverdue ? overdueLook : statusLook[status]} />;
}

const instalmentLook: Record<Instalment['status'], Look> = {
  paid: { label: msg`Paid`, color: 'green' },
  due: { label: msg`Due today`, color: 'yellow' },
  overdue: overdueLook,
  upcoming: { label: msg`Upcoming`, color: 'gray' },
};

export function InstalmentStatusBadge({ status }: { status: Instalment['status'] }) {
  return <StatusBadge look={instalmentLook[status]} />;
}
