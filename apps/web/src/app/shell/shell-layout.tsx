import { isStaffRole } from '@coffer/contracts/auth';
import {
  AppShell,
  Badge,
  Burger,
  Divider,
  Group,
  NavLink,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { useDisclosure, useHotkeys } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { LogOut } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, matchPath, Outlet, useLocation } from 'react-router';
import { Brand } from '../../components/brand.tsx';
import {
  SandboxBanner,
  sandboxBannerHeightPx,
  useIsSandbox,
} from '../../components/sandbox-banner.tsx';
import { depositQueueQueryOptions } from '../../features/admin/api.ts';
import { payoutQueueQueryOptions } from '../../features/payouts/api.ts';
import { LiveEventsProvider } from '../../lib/live-events.tsx';
import { useLogout, useMe } from '../../lib/session.ts';
import { useIsPhone } from '../../lib/use-is-phone.ts';
import { FrozenAccountBanner } from './frozen-account-banner.tsx';
import { type NavItem, navItems, staffNavItems } from './nav-items.ts';
import { NotificationsButton } from './notifications-button.tsx';
import classes from './shell-layout.module.css';
import { UserMenu } from './user-menu.tsx';
import { VerifyEmailBanner } from './verify-email-banner.tsx';

const topBarHeightPx = 56;
const navbarWidthPx = 240;
const navbarId = 'shell-navbar';
const mainId = 'main-content';

function NavItemLink({
  item,
  onNavigate,
  rightSection,
}: {
  item: NavItem;
  onNavigate: () => void;
  rightSection?: ReactNode;
}) {
  const { pathname } = useLocation();
  const patterns = item.activeOn ?? [`${item.to}/*`];
  const isActive = patterns.some((pattern) => matchPath(pattern, pathname) !== null);
  return (
    <NavLink
      component={Link}
      to={item.to}
      label={item.label}
      leftSection={<item.icon size={18} aria-hidden />}
      rightSection={rightSection}
      active={isActive}
      aria-current={isActive ? 'page' : undefined}
      onClick={onNavigate}
    />
  );
}

/** How many items wait in a queue, beside the queue's entry. */
function PendingCount({ count }: { count: number }) {
  if (count === 0) return null;
  return (
    <Badge size="sm" variant="filled" circle={count < 10} aria-label={`${count} waiting`}>
      {count}
    </Badge>
  );
}

/** Deposits and adjustments waiting for a second admin; payouts waiting to be sent. */
function usePendingCounts(): Record<string, number> {
  const deposits = useQuery(depositQueueQueryOptions);
  const payouts = useQuery(payoutQueueQueryOptions);
  return {
    '/admin/queues/deposits': deposits.data?.items.length ?? 0,
    '/admin/queues/payouts': payouts.data?.items.length ?? 0,
  };
}

function StaffNavItems({ onNavigate }: { onNavigate: () => void }) {
  const pendingCounts = usePendingCounts();
  return (
    <>
      <Divider my="xs" />
      <Text size="xs" fw={600} c="dimmed" tt="uppercase" px="sm" py={4}>
        Back office
      </Text>
      {staffNavItems.map((item) => (
        <NavItemLink
          key={item.to}
          item={item}
          onNavigate={onNavigate}
          rightSection={<PendingCount count={pendingCounts[item.to] ?? 0} />}
        />
      ))}
    </>
  );
}

/** The frame of every signed-in page: top bar, side menu and the page itself. */
export function ShellLayout() {
  const [isNavbarOpen, navbar] = useDisclosure(false);
  const isSandbox = useIsSandbox();
  // Below the `sm` breakpoint the side menu slides over the page behind the burger.
  const isPhone = useIsPhone();
  const me = useMe();
  const isNavbarHidden = isPhone && !isNavbarOpen;
  useHotkeys([['Escape', navbar.close]], []);
  const logout = useLogout();

  return (
    <LiveEventsProvider>
      <AppShell
        header={{ height: topBarHeightPx + (isSandbox ? sandboxBannerHeightPx : 0) }}
        navbar={{
          width: navbarWidthPx,
          breakpoint: 'sm',
          collapsed: { mobile: !isNavbarOpen },
        }}
        padding={{ base: 'md', sm: 'xl' }}
      >
        <a href={`#${mainId}`} className={classes.skipLink}>
          Skip to main content
        </a>
        <AppShell.Header>
          <SandboxBanner />
          <Group h={topBarHeightPx} px="md" justify="space-between" wrap="nowrap">
            <Group gap="sm" wrap="nowrap">
              <Burger
                opened={isNavbarOpen}
                onClick={navbar.toggle}
                hiddenFrom="sm"
                size="sm"
                aria-label="Navigation menu"
                aria-expanded={isNavbarOpen}
                aria-controls={navbarId}
              />
              <Brand />
            </Group>
            <Group gap={4} wrap="nowrap">
              <NotificationsButton />
              <UserMenu />
            </Group>
          </Group>
        </AppShell.Header>
        {/* Off-screen links must not take keyboard focus, so the hidden menu is inert. */}
        <AppShell.Navbar id={navbarId} p="sm" aria-label="Main" inert={isNavbarHidden}>
          <VisuallyHidden component="h2">Menu</VisuallyHidden>
          {navItems.map((item) => (
            <NavItemLink key={item.to} item={item} onNavigate={navbar.close} />
          ))}
          {me && isStaffRole(me.role) && <StaffNavItems onNavigate={navbar.close} />}
          <NavLink
            component="button"
            type="button"
            label="Logout"
            leftSection={<LogOut size={18} aria-hidden />}
            disabled={logout.isPending}
            onClick={() => logout.mutate()}
            mt="auto"
          />
        </AppShell.Navbar>
        <AppShell.Main id={mainId} tabIndex={-1} className={classes.main}>
          <FrozenAccountBanner />
          <VerifyEmailBanner />
          <Outlet />
        </AppShell.Main>
      </AppShell>
    </LiveEventsProvider>
  );
}
