import { Badge } from '@mantine/core';

export function AccountStatusBadge({ isFrozen }: { isFrozen: boolean }) {
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
