import { useLingui } from '@lingui/react';
import { Box } from '@mantine/core';
import type { ReactNode } from 'react';
import { Outlet } from 'react-router';
import { DeferredDropdown } from '../components/deferred-dropdown.tsx';
import { PublicFooter } from '../components/public-footer.tsx';
import { PublicHeader } from '../components/public-header.tsx';
import { SandboxBanner } from '../components/sandbox-banner.tsx';
import { siteMenuButton } from '../components/site-links.tsx';

const loadSiteMenu = async () => (await import('../components/site-menu.tsx')).LoadedSiteMenu;

/** The phone's site menu: its Menu code (Floating UI) loads when someone approaches it. */
export function DeferredSiteMenu() {
  const { i18n } = useLingui();
  return (
    <DeferredDropdown
      label={i18n._(siteMenuButton.label)}
      icon={siteMenuButton.icon}
      load={loadSiteMenu}
    />
  );
}

/** The frame of public pages: the sandbox label, the header, the page's own <main>, the footer. */
export function PublicFrame({
  children,
  siteMenu = <DeferredSiteMenu />,
}: {
  children: ReactNode;
  siteMenu?: ReactNode;
}) {
  return (
    <Box mih="100dvh" style={{ display: 'flex', flexDirection: 'column' }}>
      <header>
        <SandboxBanner />
        <PublicHeader siteMenu={siteMenu} />
      </header>
      <Box style={{ flex: 1 }}>{children}</Box>
      <PublicFooter />
    </Box>
  );
}

/** Route layout for pages anyone may open (landing, about, sign-in pages, 404). */
export function PublicLayout() {
  return (
    <PublicFrame>
      <Outlet />
    </PublicFrame>
  );
}
