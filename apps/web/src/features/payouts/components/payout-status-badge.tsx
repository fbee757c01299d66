import { customerPayoutStatusLabels, type PayoutStatus } from '@coffer/contracts/payouts';
import { Badge } from '@mantine/core';

const statusColors: Record<PayoutStatus, string> = {
  pending: 'yellow',
  sent: 'green',
  rejected: 'red',
};

/** Staff call a sent payout what it is; the customer sees it completed (PRODUCT.md). */
const staffStatusLabels: Record<PayoutStatus, string> = {
  pending: 'Pending',
  sent: 'Sent',
  rejected: 'Rejected',
};

export function PayoutStatusBadge({
  status,
  isForStaff = false,
}: {
  status: PayoutStatus;
  isForStaff?: boolean;
}) {
  const labels = isForStaff ? staffStatusLabels : customerPayoutStatusLabels;
  return (
    <Badge
      color={statusColors[status]}
      variant="light"
      style={{ flexShrink: 0, minWidth: 'max-content' }}
    >
      {labels[status]}
    </Badge>
  );
}
