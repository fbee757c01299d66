import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Card, Center, EmptyState, Loader, Title } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { ReceiptText } from 'lucide-react';
import { useId } from 'react';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { LoadMore } from '../../../components/query-states.tsx';
import { useLiveStatus } from '../../../lib/live-events.tsx';
import { transactionsQueryOptions } from '../api.ts';
import { TransactionsTable } from './transactions-table.tsx';

/**
 * The dashboard's transactions, newest first, a page at a time. They refresh when a live
 * event says money moved; while the live feed is down the card says so (PRODUCT.md
 * section 4) and keeps what it has, and the feed reconnects by itself.
 */
export function TransactionsCard() {
  const { t } = useLingui();
  const headingId = useId();
  const transactions = useInfiniteQuery(transactionsQueryOptions);
  const isLiveFeedBroken = useLiveStatus() === 'broken';
  const rows = transactions.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Title order={2} id={headingId} mb="md">
        <Trans>Transactions</Trans>
      </Title>
      {isLiveFeedBroken && !transactions.isError && (
        <Alert
          color="red"
          variant="light"
          role="alert"
          title={t`Error loading transactions`}
          mb="md"
        >
          <Trans>Live updates stopped. Reconnecting…</Trans>
        </Alert>
      )}
      {transactions.isPending && (
        <Center py="xl">
          <Loader aria-label={t`Loading transactions`} />
        </Center>
      )}
      {transactions.isError && (
        <LoadFailed
          title={t`Error loading transactions`}
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
          title={t`No transactions yet`}
          description={t`Money you add, send or receive shows up here.`}
        />
      )}
      {rows.length > 0 && <TransactionsTable label={t`Transactions`} transactions={rows} />}
      <LoadMore
        hasNextPage={transactions.hasNextPage}
        isFetchingNextPage={transactions.isFetchingNextPage}
        onLoadMore={() => transactions.fetchNextPage()}
      />
    </Card>
  );
}
