import { useLingui } from '@lingui/react/macro';
import { Stack, Text, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { usePageTitle } from '../lib/use-page-title.ts';
import { LoadFailed } from './load-failed.tsx';
import { LoadingState, NothingFound } from './query-states.tsx';

export type QueueProps<Item> = {
  /** Said when nothing waits, after "Nothing waiting". */
  emptyDescription: string;
  queue: UseQueryResult<{ items: Item[] }>;
  children: (items: Item[]) => ReactNode;
};

/** Loading, error, empty or the items of one list of work. */
export function QueueItems<Item>({ emptyDescription, queue, children }: QueueProps<Item>) {
  const { t } = useLingui();
  if (queue.isPending) return <LoadingState label={t`Loading the queue`} />;
  if (queue.isError) {
    return (
      <LoadFailed
        title={t`The queue did not load`}
        error={queue.error}
        isRetrying={queue.isFetching}
        onRetry={() => queue.refetch()}
      />
    );
  }
  if (queue.data.items.length === 0) {
    return <NothingFound title={t`Nothing waiting`} description={emptyDescription} />;
  }
  return children(queue.data.items);
}

export function QueueHeading({ title, description }: { title: string; description: string }) {
  return (
    <Stack gap={4}>
      <Title order={1}>{title}</Title>
      <Text c="dimmed">{description}</Text>
    </Stack>
  );
}

/** A staff work queue: its title and purpose, then loading, error, empty or the items. */
export function QueuePage<Item>({
  title,
  description,
  ...items
}: { title: string; description: string } & QueueProps<Item>) {
  usePageTitle(title);
  return (
    <Stack gap="lg">
      <QueueHeading title={title} description={description} />
      <QueueItems {...items} />
    </Stack>
  );
}
