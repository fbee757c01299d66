import type { Notification } from '@coffer/contracts/notifications';
import { Anchor, Badge, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { errorMessage } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { showErrorToast } from '../../../lib/toasts.ts';
import { markNotificationRead, notificationsQueryRoot } from '../api.ts';

/** Marks one read and refreshes every list of them (the bell and the page). */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markNotificationRead,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationsQueryRoot }),
    onError: (error) => showErrorToast(errorMessage(error)),
  });
}

/**
 * Notifications as a list: the text as plain text, when, a link to where it happened, and
 * a Mark read button on the unread ones.
 */
export function NotificationItems({
  items,
  onNavigate,
}: {
  items: Notification[];
  onNavigate?: () => void;
}) {
  const markRead = useMarkRead();
  return (
    <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {items.map((item) => (
        <Stack key={item.id} gap={2} component="li">
          <Group gap="xs" wrap="nowrap" align="flex-start">
            {item.isRead ? null : (
              <Badge size="xs" variant="filled" mt={4} aria-label="Unread" circle>
                {' '}
              </Badge>
            )}
            <Text size="sm" fw={item.isRead ? 400 : 600} style={{ overflowWrap: 'anywhere' }}>
              {item.text}
            </Text>
          </Group>
          <Group gap="sm">
            <Text size="xs" c="dimmed">
              {formatDateTime(item.createdAt)}
            </Text>
            {item.link ? (
              <Anchor component={Link} to={item.link} size="xs" onClick={onNavigate}>
                Open
              </Anchor>
            ) : null}
            {item.isRead ? null : (
              <UnstyledButton
                fz="xs"
                c="blue.7"
                td="underline"
                disabled={markRead.isPending}
                onClick={() => markRead.mutate(item.id)}
              >
                Mark read
              </UnstyledButton>
            )}
          </Group>
        </Stack>
      ))}
    </Stack>
  );
}
