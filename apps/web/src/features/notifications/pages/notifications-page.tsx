import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { LoadingState, LoadMore, NothingFound } from '../../../components/query-states.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { showErrorToast } from '../../../lib/toasts.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import {
  markAllNotificationsRead,
  notificationListQueryOptions,
  notificationsQueryRoot,
} from '../api.ts';
import { NotificationItems } from '../components/notification-items.tsx';

/** Every notification, newest first, with Mark read and Mark all read. */
export function NotificationsPage() {
  const { t } = useLingui();
  usePageTitle(t`Notifications`);
  const queryClient = useQueryClient();
  const list = useInfiniteQuery(notificationListQueryOptions);
  const markAll = useMutation({
    mutationFn: markAllNotificationsRead,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationsQueryRoot }),
    onError: (error) => showErrorToast(errorMessage(error)),
  });
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  const unreadCount = list.data?.pages[0]?.unreadCount ?? 0;
  return (
    <Stack gap="lg" maw={720}>
      <Group justify="space-between" align="flex-end">
        <Stack gap={4}>
          <Title order={1}>
            <Trans>Notifications</Trans>
          </Title>
          <Text c="dimmed">
            {unreadCount === 0
              ? t`Nothing unread.`
              : t`${plural(unreadCount, { one: '# unread.', other: '# unread.' })}`}
          </Text>
        </Stack>
        <Button
          variant="default"
          disabled={unreadCount === 0}
          loading={markAll.isPending}
          onClick={() => markAll.mutate()}
        >
          <Trans>Mark all read</Trans>
        </Button>
      </Group>
      <Card withBorder padding="lg">
        {list.isPending ? (
          <LoadingState label={t`Loading notifications`} />
        ) : list.isError ? (
          <LoadFailed
            title={t`The notifications did not load`}
            error={list.error}
            isRetrying={list.isFetching}
            onRetry={() => list.refetch()}
          />
        ) : items.length === 0 ? (
          <NothingFound
            title={t`No notifications yet`}
            description={t`Money you receive, decisions about your account and replies from support will appear here.`}
          />
        ) : (
          <>
            <NotificationItems items={items} />
            <LoadMore
              hasNextPage={list.hasNextPage}
              isFetchingNextPage={list.isFetchingNextPage}
              onLoadMore={() => list.fetchNextPage()}
            />
          </>
        )}
      </Card>
    </Stack>
  );
}
