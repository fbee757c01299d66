import { isStaffRole } from '@coffer/contracts/auth';
import { Trans, useLingui } from '@lingui/react/macro';
import { Burger, Group, NavLink, rem, VisuallyHidden } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { LogOut } from 'lucide-react';
import { type CSSProperties, lazy, Suspense, useEffect, useEffectEvent, useRef } from 'react';
import { Outlet } from 'react-router';
import { Brand } from '../../components/brand.tsx';
import {
  SandboxBanner,
  sandboxBannerHeightPx,
  useIsSandbox,
} from '../../components/sandbox-banner.tsx';
import { LiveEventsProvider } from '../../lib/live-events.tsx';
import { customerPages, profilePage } from '../../lib/navigation.ts';
import { mustSetUpTwoFactor, useLogout, useMe } from '../../lib/session.ts';
import { useIsPhoneOnceShown } from '../../lib/use-is-phone.ts';
import { FrozenAccountBanner } from './frozen-account-banner.tsx';
import { HelpButton, SupportUnreadBadge } from './help-button.tsx';
import { NavItemLink } from './nav-item-link.tsx';
import { NotificationsButton } from './notifications-button.tsx';
import classes from './shell-layout.module.css';
import { UserMenu } from './user-menu.tsx';
import { VerifyEmailBanner } from './verify-email-banner.tsx';

const StaffNavItems = lazy(async () => ({
  default: (await import('./staff-nav-items.tsx')).StaffNavItems,
}));

const topBarHeightPx = 56;

/**
 * The phone menu's open state. Closing it makes it inert, which would drop the keyboard's
 * focus on the page's body when it was on an entry (Escape, or choosing a page): the focus
 * goes back to the burger that opened it, as a disclosure's does (on a desktop the burger is
 * hidden and the focus stays on the entry).
 */
function usePhoneMenu() {
  const [isOpen, handlers] = useDisclosure(false);
  const burgerRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLElement>(null);
  const close = () => {
    // Read at the time, not from this render: the Escape hotkey keeps the first close.
    if (menuRef.current?.contains(document.activeElement)) burgerRef.current?.focus();
    handlers.close();
  };
  return { isOpen, toggle: handlers.toggle, close, burgerRef, menuRef };
}

/**
 * Calls `onEscape` when Escape alone is pressed, wherever the focus is (inputs included),
 * as Mantine's `useHotkeys` did here, without its hotkey parser (0.5 KB gzipped on every
 * signed-in page's first load).
 */
function useEscapeKey(onEscape: () => void) {
  const handleKeydown = useEffectEvent((event: KeyboardEvent) => {
    if (event.key !== 'Escape' || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey)
      return;
    event.preventDefault();
    onEscape();
  });
  useEffect(() => {
    document.documentElement.addEventListener('keydown', handleKeydown);
    return () => document.documentElement.removeEventListener('keydown', handleKeydown);
  }, []);
}

const navbarId = 'shell-navbar';
const mainId = 'main-content';

/**
 * The frame of every signed-in page: top bar, side menu and the page itself. Plain
 * landmarks laid out by shell-layout.module.css, which draws what Mantine's AppShell drew
 * (the same sizes, borders and phone menu) without its code on every page's first load.
 */
export function ShellLayout() {
  const navbar = usePhoneMenu();
  const isNavbarOpen = navbar.isOpen;
  const isSandbox = useIsSandbox();
  // Below the `sm` breakpoint the side menu slides over the page behind the burger (in
  // CSS: the server renders this frame without knowing the screen).
  const isPhone = useIsPhoneOnceShown();
  const me = useMe();
  const isStaff = me ? isStaffRole(me.role) : false;
  // Staff who must set up two-factor first have only their profile until it is on.
  const isBackOfficeOpen = isStaff && me ? !mustSetUpTwoFactor(me) : false;
  const isNavbarHidden = isPhone && !isNavbarOpen;
  // The open phone menu covers the page: the keyboard must not wander under it.
  const isPageCovered = isPhone && isNavbarOpen;
  useEscapeKey(navbar.close);
  const logout = useLogout();
  const { t } = useLingui();
  const headerHeight = rem(topBarHeightPx + (isSandbox ? sandboxBannerHeightPx : 0));

  return (
    <LiveEventsProvider>
      <div
        className={classes.root}
        style={{ '--shell-header-height': headerHeight } as CSSProperties}
      >
        <a href={`#${mainId}`} className={classes.skipLink}>
          <Trans>Skip to main content</Trans>
        </a>
        {/* A dialog's scroll lock keeps this fixed bar clear of the scrollbar by this class. */}
        <header className={`${classes.header} right-scroll-bar-position`}>
          <SandboxBanner />
          <Group h={topBarHeightPx} px="md" justify="space-between" wrap="nowrap">
            <Group gap="sm" wrap="nowrap">
              <Burger
                ref={navbar.burgerRef}
                opened={isNavbarOpen}
                onClick={navbar.toggle}
                hiddenFrom="sm"
                size="sm"
                aria-label={t`Navigation menu`}
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
        </header>
        {/* Off-screen links must not take keyboard focus, so the hidden menu is inert. */}
        <nav
          ref={navbar.menuRef}
          id={navbarId}
          className={classes.navbar}
          data-opened={isNavbarOpen || undefined}
          aria-label={t`Main`}
          inert={isNavbarHidden}
        >
          <VisuallyHidden component="h2">
            <Trans>Menu</Trans>
          </VisuallyHidden>
          {/* Each role sees its own pages: staff have no wallet, customers no back office. */}
          {isStaff ? (
            <>
              {isBackOfficeOpen ? (
                <Suspense fallback={null}>
                  <StaffNavItems onNavigate={navbar.close} />
                </Suspense>
              ) : null}
              <NavItemLink item={profilePage} onNavigate={navbar.close} />
            </>
          ) : (
            customerPages.map((item) => (
              <NavItemLink
                key={item.to}
                item={item}
                onNavigate={navbar.close}
                rightSection={item.to === '/support' ? <SupportUnreadBadge /> : undefined}
              />
            ))
          )}
          <NavLink
            component="button"
            type="button"
            label={t`Logout`}
            leftSection={<LogOut size={18} aria-hidden />}
            disabled={logout.isPending}
            onClick={() => logout.mutate()}
            mt="auto"
          />
        </nav>
        {/* Customers' pages end with room for the floating Help button. */}
        <main
          id={mainId}
          tabIndex={-1}
          className={classes.main}
          inert={isPageCovered}
          data-with-help-button={isStaff ? undefined : true}
        >
          <FrozenAccountBanner />
          <VerifyEmailBanner />
          <Outlet />
        </main>
        {isStaff ? null : (
          <div inert={isPageCovered}>
            <HelpButton />
          </div>
        )}
      </div>
    </LiveEventsProvider>
  );
}
