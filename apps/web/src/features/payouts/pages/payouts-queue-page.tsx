import { Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { ErrorState, LoadingState, NothingFound } from '../../admin/components/query-states.tsx';
import { payoutQueueQueryOptions } from '../api.ts';
import { PayoutsTable } from '../components/payouts-table.tsx';

/** Withdrawals waiting to be sent or rejected, oldest first (PRODUCT.md "Admin: queues"). */
export function PayoutsQueuePage() {
  usePageTitle('Payouts queue');
  const queue = useQuery(payoutQueueQueryOptions);
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>Payouts queue</Title>
        <Text c="dimmed">
          Withdrawals customers asked for, oldest first. The amount is held in their wallet until an
          admin marks it sent, with the reference of the money that left, or rejects it with a
          reason the customer sees.
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
        <NothingFound title="Nothing waiting" description="Every withdrawal has been decided." />
      ) : (
        <PayoutsTable
          label="Withdrawals waiting to be sent"
          payouts={queue.data.items}
          isCustomerShown
        />
      )}
    </Stack>
  );
}
