import { useLingui } from '@lingui/react/macro';
import { Indicator } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Bell } from 'lucide-react';
import { DeferredDropdown } from '../../components/deferred-dropdown.tsx';
import { bellQueryOptions } from '../../features/notifications/api.ts';

const loadDropdown = async () =>
  (await import('./notifications-dropdown.tsx')).NotificationsDropdown;

/** The bell in the top bar, with the unread count; kept current by live events. */
export function NotificationsButton() {
  const unreadCount = useQuery(bellQueryOptions).data?.unreadCount ?? 0;
  const { t } = useLingui();
  return (
    <DeferredDropdown
      label={unreadCount > 0 ? t`Notifications, ${unreadCount} unread` : t`Notifications`}
      icon={
        <Indicator
          label={unreadCount > 99 ? '99+' : unreadCount}
          size={16}
          disabled={unreadCount === 0}
          color="red"
        >
          <Bell size={20} aria-hidden />
        </Indicator>
      }
      load={loadDropdown}
    />
  );
}
