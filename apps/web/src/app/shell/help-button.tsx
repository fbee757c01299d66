import { Trans, useLingui } from '@lingui/react/macro';
import { Affix, Badge, Box, Button, Indicator } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { LifeBuoy } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { supportUnreadQueryOptions } from '../../features/support/api.ts';

/** Staff replies the customer has not read, for the menu's Support entry and the Help button. */
export function useSupportUnreadCount(): number {
  return useQuery(supportUnreadQueryOptions).data?.unreadCount ?? 0;
}

/** The Support entry's badge in the side menu. */
export function SupportUnreadBadge() {
  const unreadCount = useSupportUnreadCount();
  const { t } = useLingui();
  if (unreadCount === 0) return null;
  return (
    <Badge
      size="sm"
      variant="filled"
      color="red"
      circle={unreadCount < 10}
      aria-label={t`${unreadCount} unread`}
      data-testid="support-unread-badge"
    >
      {unreadCount}
    </Badge>
  );
}

/**
 * The floating Help button of customers' pages: it opens the support thread, in-product
 * messaging with staff (PRODUCT.md "Shell"), and is hidden on the thread itself.
 */
export function HelpButton() {
  const { pathname } = useLocation();
  const unreadCount = useSupportUnreadCount();
  const { t } = useLingui();
  if (pathname.toLowerCase() === '/support') return null;
  // In place rather than in a portal (docs/decisions/031): the server then draws it with the
  // page, and hydration adopts it, where a portal is mounted only after hydration, in the
  // same task, with a search of the whole document for its node and a render of its own.
  // It is fixed to the screen either way; in place, the shell's `inert` also covers it.
  return (
    // Mantine places it at the line's end: bottom left in a right-to-left language.
    <Affix position={{ bottom: 20, right: 20 }} withinPortal={false}>
      <Indicator label={unreadCount} size={18} color="red" disabled={unreadCount === 0}>
        <Button
          component={Link}
          to="/support"
          radius="xl"
          size="md"
          px={{ base: 12, sm: 22 }}
          aria-label={unreadCount > 0 ? t`Help: ${unreadCount} unread messages` : t`Help`}
        >
          <LifeBuoy size={18} aria-hidden />
          {/* On a phone the word goes: the button then covers less of the form beneath. */}
          <Box component="span" visibleFrom="sm" ms="xs">
            <Trans>Help</Trans>
          </Box>
        </Button>
      </Indicator>
    </Affix>
  );
}
