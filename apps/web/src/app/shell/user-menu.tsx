import { useLingui } from '@lingui/react/macro';
import { CircleUserRound } from 'lucide-react';
import { DeferredDropdown } from '../../components/deferred-dropdown.tsx';

const loadDropdown = async () => (await import('./user-menu-dropdown.tsx')).UserMenuDropdown;

/** The user menu: who is signed in, their profile, the appearance choice and Logout. */
export function UserMenu() {
  const { t } = useLingui();
  return (
    <DeferredDropdown
      label={t`User menu`}
      icon={<CircleUserRound size={22} aria-hidden />}
      load={loadDropdown}
    />
  );
}
