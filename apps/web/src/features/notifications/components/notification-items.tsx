import type { Notification } from '@coffer/contracts/notifications';
import { Trans } from '@lingui/react/macro';
import { Anchor, Box, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
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
              <>
                <Box
                  w={8}
                  h={8}
                  mt={6}
                  bg="blue.7"
                  style={{ borderRadius: '50%', flexShrink: 0 }}
                  aria-hidden
                />
                <VisuallyHidden>
                  <Trans>Unread:</Trans>
                </VisuallyHidden>
              </>
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
                <Trans>Open</Trans>
              </Anchor>
            ) : null}
            {item.isRead ? null : (
              <Anchor
                component="button"
                type="button"
                size="xs"
                disabled={markRead.isPending}
                onClick={() => markRead.mutate(item.id)}
              >
                <Trans>Mark read</Trans>
              </Anchor>
            )}
          </Group>
        </Stack>
      ))}
    </Stack>
  );
}
