import type { SupportMessage } from '@coffer/contracts/support';
import { Trans, useLingui } from '@lingui/react/macro';
import { Group, Paper, Stack, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { formatDateTime } from '../../../lib/dates.ts';
import { MessageText } from './message-text.tsx';

/** Who wrote a message and when; staff are marked as support. */
function MessageAuthor({ message }: { message: SupportMessage }) {
  const { authorName } = message;
  const sentAt = formatDateTime(message.createdAt);
  return message.isFromStaff ? (
    <Trans>
      {authorName} (support) · {sentAt}
    </Trans>
  ) : (
    <>
      {authorName} · {sentAt}
    </>
  );
}

/**
 * A support thread, oldest first. The viewer's own side sits on the right. New messages
 * are announced to screen readers (a log region) and scrolled into view.
 */
export function MessageThread({
  messages,
  isStaffView,
}: {
  messages: SupportMessage[];
  isStaffView: boolean;
}) {
  const end = useRef<HTMLDivElement>(null);
  const lastId = messages.at(-1)?.id;
  useEffect(() => {
    if (lastId) end.current?.scrollIntoView({ block: 'nearest' });
  }, [lastId]);
  const { t } = useLingui();
  if (messages.length === 0) {
    return (
      <Text c="dimmed" size="sm">
        {isStaffView ? (
          <Trans>No messages yet.</Trans>
        ) : (
          <Trans>
            No messages yet. Write to us below: support is free and answered by our staff.
          </Trans>
        )}
      </Text>
    );
  }
  return (
    <Stack gap="sm" role="log" aria-label={t`Messages`} mah={520} style={{ overflowY: 'auto' }}>
      {messages.map((message) => {
        const isOwnSide = message.isFromStaff === isStaffView;
        return (
          <Group key={message.id} justify={isOwnSide ? 'flex-end' : 'flex-start'}>
            <Paper
              withBorder
              p="sm"
              maw="85%"
              bg={message.isFromStaff ? 'blue.0' : undefined}
              data-testid="support-message"
            >
              <Text size="xs" c="dimmed" mb={4}>
                <MessageAuthor message={message} />
              </Text>
              <MessageText body={message.body} isStaffView={isStaffView} />
            </Paper>
          </Group>
        );
      })}
      <div ref={end} />
    </Stack>
  );
}
