import { Stack, Text, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { usePageTitle } from '../lib/use-page-title.ts';
import { LoadFailed } from './load-failed.tsx';
import { LoadingState, NothingFound } from './query-states.tsx';

/** A staff work queue: its title and purpose, then loading, error, empty or the items. */
export function QueuePage<Item>({
  title,
  description,
  emptyDescription,
  queue,
  children,
}: {
  title: string;
  description: string;
  /** Said when nothing waits, after "Nothing waiting". */
  emptyDescription: string;
  queue: UseQueryResult<{ items: Item[] }>;
  children: (items: Item[]) => ReactNode;
}) {
  usePageTitle(title);
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>{title}</Title>
        <Text c="dimmed">{description}</Text>
      </Stack>
      {queue.isPending ? (
        <LoadingState label="Loading the queue" />
      ) : queue.isError ? (
        <LoadFailed
          title="The queue did not load"
          error={queue.error}
          isRetrying={queue.isFetching}
          onRetry={() => queue.refetch()}
        />
      ) : queue.data.items.length === 0 ? (
        <NothingFound title="Nothing waiting" description={emptyDescription} />
      ) : (
        children(queue.data.items)
      )}
    </Stack>
  );
}
