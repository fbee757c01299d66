import type { PayoutStatus } from '@coffer/contracts/payouts';
import { useLingui } from '@lingui/react';
import { Badge } from '@mantine/core';
import { customerPayoutStatusLabels, staffPayoutStatusLabels } from '../labels.ts';

const statusColors: Record<PayoutStatus, string> = {
  pending: 'yellow',
  sent: 'green',
  rejected: 'red',
};

/** Staff call a sent payout what it is; the customer sees it completed (PRODUCT.md). */
export function PayoutStatusBadge({
  status,
  isForStaff = false,
}: {
  status: PayoutStatus;
  isForStaff?: boolean;
}) {
  const { i18n } = useLingui();
  const labels = isForStaff ? staffPayoutStatusLabels : customerPayoutStatusLabels;
  return (
    <Badge
      color={statusColors[status]}
      variant="light"
      style={{ flexShrink: 0, minWidth: 'max-content' }}
    >
      {i18n._(labels[status])}
    </Badge>
  );
}
