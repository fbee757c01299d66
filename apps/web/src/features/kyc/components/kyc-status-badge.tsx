import type { KycStatus } from '@coffer/contracts/kyc';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Badge } from '@mantine/core';

const statusColors: Record<KycStatus, string> = {
  pending: 'yellow',
  approved: 'green',
  rejected: 'red',
};

export const kycStatusLabels: Record<KycStatus, MessageDescriptor> = {
  pending: msg`Pending`,
  approved: msg`Approved`,
  rejected: msg`Rejected`,
};
const notSubmitted = msg`Not submitted`;

export function KycStatusBadge({ status }: { status: KycStatus | null }) {
  const { i18n } = useLingui();
  return (
    <Badge
      color={status ? statusColors[status] : 'gray'}
      variant="light"
      style={{ flexShrink: 0, minWidth: 'max-content' }}
    >
      {i18n._(status ? kycStatusLabels[status] : notSubmitted)}
    </Badge>
  );
}
