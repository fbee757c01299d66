import type { Role } from '@coffer/contracts/auth';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Badge } from '@mantine/core';

/** Each role's name, a message: render it with `i18n._`. */
export const roleLabels: Record<Role, MessageDescriptor> = {
  customer: msg`Customer`,
  support: msg`Support`,
  admin: msg`Admin`,
};

/** Marks staff in lists of people; customers carry no badge. */
export function StaffRoleBadge({ role }: { role: Role }) {
  const { i18n } = useLingui();
  if (role === 'customer') return null;
  return (
    <Badge color="gray" variant="outline" size="sm">
      {i18n._(roleLabels[role])}
    </Badge>
  );
}
