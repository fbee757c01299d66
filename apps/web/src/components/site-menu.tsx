import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { Menu, type MenuProps } from '@mantine/core';
import { Link } from 'react-router';
import { useMe } from '../lib/session.ts';
import { type TopBarDropdownProps, useOpenedOnceLoaded } from './deferred-dropdown.tsx';
import { siteLinks } from './site-links.tsx';

const menuLayout: MenuProps = { position: 'bottom-end', width: 200, shadow: 'md' };

function SiteMenuDropdown() {
  const me = useMe();
  const { i18n } = useLingui();
  return (
    <Menu.Dropdown>
      {siteLinks.map((link) => (
        <Menu.Item key={link.to} component={Link} to={link.to}>
          {i18n._(link.label)}
        </Menu.Item>
      ))}
      {!me && (
        <Menu.Item component={Link} to="/signin">
          <Trans>Login</Trans>
        </Menu.Item>
      )}
    </Menu.Dropdown>
  );
}

/** The phone's site menu inside the app, once a click on its button has loaded it. */
export function LoadedSiteMenu({ target }: TopBarDropdownProps) {
  const [isOpen, setIsOpen] = useOpenedOnceLoaded();
  return (
    <Menu {...menuLayout} opened={isOpen} onChange={setIsOpen}>
      <Menu.Target>{target}</Menu.Target>
      <SiteMenuDropdown />
    </Menu>
  );
}

/**
 * The phone's site menu on the server-rendered landing page: kept in the page and out of
 * a portal, so the page's own small script opens it (features/landing/static-page.ts).
 */
export function KeptSiteMenu({ target }: TopBarDropdownProps) {
  return (
    <Menu
      {...menuLayout}
      keepMounted
      keepMountedMode="display-none"
      withinPortal={false}
      // Its focus placeholder would be a child a menu may not have (axe).
      withInitialFocusPlaceholder={false}
    >
      <Menu.Target>{target}</Menu.Target>
      <SiteMenuDropdown />
    </Menu>
  );
}
