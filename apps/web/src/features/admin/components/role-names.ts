import type { Role } from '@coffer/contracts/auth';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/** A role as the back office names it in its own sentences and choices, in the page's language. */
export const roleNames: Record<Role, MessageDescriptor> = {
  customer: msg`Customer`,
  support: msg`Support`,
  admin: msg`Admin`,
};
