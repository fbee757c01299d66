import { type DisputeStatus, disputeStatusLabels } from '@coffer/contracts/disputes';
import { Badge } from '@mantine/core';

const colors: Record<DisputeStatus, string> = {
  pending: 'yellow',
  investigating: 'blue',
  resolved: 'green',
  rejected: 'red',
};

export function DisputeStatusBadge({ status }: { status: DisputeStatus }) {
  return (
    <Badge color={colors[status]} variant="light" style={{ flexShrink: 0 }}>
      {disputeStatusLabels[status]}
    </Badge>
  );
}
