import type { KycStatus } from '@coffer/contracts/kyc';
import { Badge } from '@mantine/core';

const statusColors: Record<KycStatus, string> = {
  pending: 'yellow',
  approved: 'green',
  rejected: 'red',
};

export const kycStatusLabels: Record<KycStatus, string> = {
  pending: 'Pending',
  approved: 'Approved',
  rejected: 'Rejected',
};

export function KycStatusBadge({ status }: { status: KycStatus | null }) {
  return (
    <Badge
      color={status ? statusColors[status] : 'gray'}
      variant="light"
      style={{ flexShrink: 0, minWidth: 'max-content' }}
    >
      {status ? kycStatusLabels[status] : 'Not submitted'}
    </Badge>
  );
}
