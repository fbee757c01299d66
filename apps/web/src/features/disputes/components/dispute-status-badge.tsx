import type { DisputeStatus } from '@coffer/contracts/disputes';
import { useLingui } from '@lingui/react';
import { Badge } from '@mantine/core';
import { disputeStatusLabels } from '../labels.ts';

const colors: Record<DisputeStatus, string> = {
  pending: 'yellow',
  investigating: 'blue',
  resolved: 'green',
  rejected: 'red',
};

export function DisputeStatusBadge({ status }: { status: DisputeStatus }) {
  const { i18n } = useLingui();
  return (
    <Badge color={colors[status]} variant="light" style={{ flexShrink: 0 }}>
      {i18n._(disputeStatusLabels[status])}
    </Badge>
  );
}
