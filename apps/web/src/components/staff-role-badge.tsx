import type { Role } from '@coffer/contracts/auth';
import { Badge } from '@mantine/core';

export const roleLabels: Record<Role, string> = {
  customer: 'Customer',
  support: 'Support',
  admin: 'Admin',
};

/** Marks staff in lists of people; customers carry no badge. */
export function StaffRoleBadge({ role }: { role: Role }) {
  if (role === 'customer') return null;
  return (
    <Badge color="gray" variant="outline" size="sm">
      {roleLabels[role]}
    </Badge>
  );
}
