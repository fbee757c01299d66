import { Trans, useLingui } from '@lingui/react/macro';
import { Card, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { LoadingState } from '../../../components/query-states.tsx';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import {
  markThreadRead,
  myThreadQueryOptions,
  sendSupportMessage,
  supportQueryRoot,
} from '../api.ts';
import { MessageComposer } from '../components/message-composer.tsx';
import { MessageThread } from '../components/message-thread.tsx';

/**
 * `/support`: the customer's one thread with staff. Replies arrive live (the `support`
 * topic refetches it); whatever is on screen counts as read.
 */
export function SupportPage() {
  const { t } = useLingui();
  usePageTitle(t`Support`);
  const queryClient = useQueryClient();
  const thread = useQuery(myThreadQueryOptions);
  const markRead = useMutation({
    mutationFn: markThreadRead,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...supportQueryRoot, 'unread'] }),
  });
  const unreadCount = thread.data?.unreadCount ?? 0;
  const { mutate } = markRead;
  useEffect(() => {
    if (unreadCount > 0) mutate();
  }, [unreadCount, mutate]);
  return (
    <Stack gap="lg" maw={800}>
      <Stack gap={4}>
        <Title order={1}>
          <Trans>Support</Trans>
        </Title>
        <Text c="dimmed">
          <Trans>
            Messages with our staff. Support is free. Quote a dispute's reference (REF-…) so we find
            it at once.
          </Trans>
        </Text>
      </Stack>
      <Card withBorder padding="lg">
        <Stack gap="lg">
          {thread.isPending ? (
            <LoadingState label={t`Loading your messages`} />
          ) : thread.isError ? (
            <LoadFailed
              title={t`Your messages did not load`}
              error={thread.error}
              isRetrying={thread.isFetching}
              onRetry={() => thread.refetch()}
            />
          ) : (
            <MessageThread messages={thread.data.messages} isStaffView={false} />
          )}
          <MessageComposer
            label={t`Your message`}
            send={sendSupportMessage}
            onSent={() => queryClient.invalidateQueries({ queryKey: supportQueryRoot })}
          />
        </Stack>
      </Card>
    </Stack>
  );
}
