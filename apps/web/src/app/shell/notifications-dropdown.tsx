import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Button, Divider, Group, Loader, Popover, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import {
  type TopBarDropdownProps,
  useOpenedOnceLoaded,
} from '../../components/deferred-dropdown.tsx';
// The items directly, so the profile page, which shares the feature's index.ts, does not
// load them; the query through index.ts, so the frame loads the feature's catalog (the
// items' words are its).
import { NotificationItems } from '../../features/notifications/components/notification-items.tsx';
import {
  bellQueryOptions,
  markAllNotificationsRead,
  notificationsQueryRoot,
} from '../../features/notifications/index.ts';
import { errorMessage } from '../../lib/api-client.ts';
import { showErrorToast } from '../../lib/toasts.ts';

/** The bell's dropdown: the latest notifications, Mark all read, and the full list. */
export function NotificationsDropdown({ target }: TopBarDropdownProps) {
  const [isOpen, setIsOpen] = useOpenedOnceLoaded();
  const queryClient = useQueryClient();
  const bell = useQuery(bellQueryOptions);
  const { t } = useLingui();
  const markAll = useMutation({
    mutationFn: markAllNotificationsRead,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationsQueryRoot }),
    onError: (error) => showErrorToast(errorMessage(error)),
  });
  const close = () => setIsOpen(false);
  return (
    <Popover
      position="bottom-end"
      width={320}
      shadow="md"
      withArrow
      trapFocus
      returnFocus
      opened={isOpen}
      onChange={setIsOpen}
    >
      <Popover.Target>{target}</Popover.Target>
      <Popover.Dropdown>
        {bell.isPending ? (
          <Loader size="sm" aria-label={t`Loading notifications`} />
        ) : bell.isError ? (
          <Text size="sm">{errorMessage(bell.error)}</Text>
        ) : bell.data.items.length === 0 ? (
          <Text size="sm">
            <Trans>You have no notifications.</Trans>
          </Text>
        ) : (
          <NotificationItems items={bell.data.items} onNavigate={close} />
        )}
        <Divider my="sm" />
        <Group justify="space-between">
          <Anchor component={Link} to="/notifications" size="sm" onClick={close}>
            <Trans>See all</Trans>
          </Anchor>
          <Button
            size="compact-sm"
            variant="subtle"
            disabled={(bell.data?.unreadCount ?? 0) === 0}
            loading={markAll.isPending}
            onClick={() => markAll.mutate()}
          >
            <Trans>Mark all read</Trans>
          </Button>
        </Group>
      </Popover.Dropdown>
    </Popover>
  );
}
