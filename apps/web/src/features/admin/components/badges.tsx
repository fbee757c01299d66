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
        Closed
      </Badge>
    );
  }
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
