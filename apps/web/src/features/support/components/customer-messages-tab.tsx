import { useLingui } from '@lingui/react/macro';
import { Stack } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { LoadingState } from '../../../components/query-states.tsx';
import { customerThreadQueryOptions, sendStaffReply } from '../staff-api.ts';
import { MessageComposer } from './message-composer.tsx';
import { MessageThread } from './message-thread.tsx';
import { ThreadHandling } from './thread-handling.tsx';

/**
 * The Messages tab of a customer's page: the thread and a reply box. Another staff
 * member's reply shows up live, in order, so two people do not answer twice unknowingly.
 */
export function CustomerMessagesTab({ userId }: { userId: string }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const thread = useQuery(customerThreadQueryOptions(userId));
  return (
    <Stack gap="lg" maw={800}>
      {thread.isPending ? (
        <LoadingState label={t`Loading messages`} />
      ) : thread.isError ? (
        <LoadFailed
          title={t`The messages did not load`}
          error={thread.error}
          isRetrying={thread.isFetching}
          onRetry={() => thread.refetch()}
        />
      ) : (
        <>
          {thread.data.messages.length > 0 && (
            <ThreadHandling userId={userId} thread={thread.data} />
          )}
          <MessageThread messages={thread.data.messages} isStaffView />
        </>
      )}
      <MessageComposer
        label={t`Reply`}
        send={(body) => sendStaffReply(userId, body)}
        onSent={() => queryClient.invalidateQueries({ queryKey: ['admin'] })}
      />
    </Stack>
  );
}
