import { Trans } from '@lingui/react/macro';
import { Button } from '@mantine/core';
import { LogOut } from 'lucide-react';
import { useLogout } from '../lib/session.ts';

/**
 * The way out of a page that must be done before anything else (a required password change,
 * new terms): the person may always sign out instead.
 */
export function SignOutButton() {
  const logout = useLogout();
  return (
    <Button
      variant="subtle"
      leftSection={<LogOut size={16} aria-hidden />}
      onClick={() => logout.mutate()}
      loading={logout.isPending}
    >
      <Trans>Sign out</Trans>
    </Button>
  );
}
