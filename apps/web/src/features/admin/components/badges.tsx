import { Trans } from '@lingui/react/macro';
import { Badge } from '@mantine/core';

/** Closed (by the customer, ADR 050) outranks frozen: nothing moves in a closed account. */
export function AccountStatusBadge({
  isFrozen,
  closedAt = null,
}: {
  isFrozen: boolean;
  closedAt?: string | null;
}) {
  if (closedAt !== null) {
    return (
      <Badge color="gray" variant="filled">
        <Trans>Closed</Trans>
      </Badge>
    );
  }
  return isFrozen ? (
    <Badge color="red" variant="light">
      <Trans>Frozen</Trans>
    </Badge>
  ) : (
    <Badge color="green" variant="light">
      <Trans>Active</Trans>
    </Badge>
  );
}
