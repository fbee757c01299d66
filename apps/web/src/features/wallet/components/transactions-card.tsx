import { Alert, Button, Card, Center, EmptyState, Group, Loader, Title } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { ReceiptText } from 'lucide-react';
import { useId } from 'react';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { useLiveStatus } from '../../../lib/live-events.tsx';
import { transactionsQueryOptions } from '../api.ts';
import { TransactionsTable } from './transactions-table.tsx';

/**
 * The dashboard's transactions, newest first, a page at a time. They refresh when a live
 * event says money moved; while the live feed is down the card says so (PRODUCT.md
 * section 4) and keeps what it has, and the feed reconnects by itself.
 */
export function TransactionsCard() {
  const headingId = useId();
  const transactions = useInfiniteQuery(transactionsQueryOptions);
  const isLiveFeedBroken = useLiveStatus() === 'broken';
  const rows = transactions.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Title order={2} id={headingId} mb="md">
        Transactions
      </Title>
      {isLiveFeedBroken && !transactions.isError && (
        <Alert color="red" variant="light" role="alert" title="Error loading transactions" mb="md">
          Live updates stopped. Reconnecting…
        </Alert>
      )}
      {transactions.isPending && (
        <Center py="xl">
          <Loader aria-label="Loading transactions" />
        </Center>
      )}
      {transactions.isError && (
        <LoadFailed
          title="Error loading transactions"
          error={transactions.error}
          isRetrying={transactions.isFetching}
          onRetry={() => transactions.refetch()}
        />
      )}
      {transactions.isSuccess && rows.length === 0 && (
        <EmptyState
          py="xl"
          size="sm"
          icon={<ReceiptText size={28} aria-hidden />}
          title="No transactions yet"
          description="Money you add, send or receive shows up here."
        />
      )}
      {rows.length > 0 && <TransactionsTable label="Transactions" transactions={rows} />}
      {transactions.hasNextPage && (
        <Group justify="center" mt="md">
          <Button
            variant="default"
            loading={transactions.isFetchingNextPage}
            onClick={() => transactions.fetchNextPage()}
          >
            Load more
          </Button>
        </Group>
      )}
    </Card>
  );
}
