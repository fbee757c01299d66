import { useLingui } from '@lingui/react';
import { NavLink } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, matchPath, useLocation } from 'react-router';
import type { NavItem } from '../../lib/navigation.ts';

/** One entry of the side menu, marked as the current page where its patterns match. */
export function NavItemLink({
  item,
  onNavigate,
  rightSection,
}: {
  item: NavItem;
  onNavigate: () => void;
  rightSection?: ReactNode;
}) {
  const { i18n } = useLingui();
  const { pathname } = useLocation();
  const patterns = item.activeOn ?? [`${item.to}/*`];
  const isActive = patterns.some((pattern) => matchPath(pattern, pathname) !== null);
  return (
    <NavLink
      component={Link}
      to={item.to}
      label={i18n._(item.label)}
      leftSection={<item.icon size={18} aria-hidden />}
      rightSection={rightSection}
      active={isActive}
      aria-current={isActive ? 'page' : undefined}
      onClick={onNavigate}
    />
  );
}
