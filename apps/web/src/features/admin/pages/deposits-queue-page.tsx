import { Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { depositQueueQueryOptions } from '../api.ts';
import { MoneyRequestsTable } from '../components/money-requests-table.tsx';
import { ErrorState, LoadingState, NothingFound } from '../components/query-states.tsx';

/** Deposits and debit adjustments waiting for a second admin, oldest first. */
export function DepositsQueuePage() {
  usePageTitle('Deposits queue');
  const queue = useQuery(depositQueueQueryOptions);
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>Deposits queue</Title>
        <Text c="dimmed">
          Deposits and debit adjustments above the four-eyes threshold, or prepared by support, wait
          here for an admin other than the one who prepared them. Oldest first.
        </Text>
      </Stack>
      {queue.isPending ? (
        <LoadingState label="Loading the queue" />
      ) : queue.isError ? (
        <ErrorState
          title="The queue did not load"
          error={queue.error}
          isRetrying={queue.isFetching}
          onRetry={() => queue.refetch()}
        />
      ) : queue.data.items.length === 0 ? (
        <NothingFound title="Nothing waiting" description="Every request has been decided." />
      ) : (
        <MoneyRequestsTable
          label="Requests waiting for approval"
          requests={queue.data.items}
          isCustomerShown
        />
      )}
    </Stack>
  );
}
