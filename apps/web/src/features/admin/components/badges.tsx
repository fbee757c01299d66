import type { Role } from '@coffer/contracts/auth';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
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

/** A role as the back office names it in its own sentences and choices, in the page's language. */
export const roleNames: Record<Role, MessageDescriptor> = {
  customer: msg`Customer`,
  support: msg`Support`,
  admin: msg`Admin`,
};

/** An icon that means a direction ("back") points the other way in a right-to-left page. */
export function mirroredIn(dir: 'ltr' | 'rtl'): { transform: string } | undefined {
  return dir === 'rtl' ? { transform: 'scaleX(-1)' } : undefined;
}
