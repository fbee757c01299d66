import { describePayoutDestination, type Payout } from '@coffer/contracts/payouts';
import { Card, EmptyState, Stack, Text, Title } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Landmark } from 'lucide-react';
import { useId } from 'react';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { LoadingState, LoadMore } from '../../../components/query-states.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { myPayoutsQueryOptions } from '../api.ts';
import { PayoutStatusBadge } from './payout-status-badge.tsx';

const columns: Column<Payout>[] = [
  {
    key: 'amount',
    header: 'Amount',
    cell: (payout) => (
      <Stack gap={0}>
        <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
          {formatAmountMinor(payout.amountMinor, payout.currency)}
        </Text>
        {payout.feeMinor !== 0n && (
          <Text size="xs" style={{ whiteSpace: 'nowrap' }}>
            + {formatAmountMinor(payout.feeMinor, payout.currency)} fee
          </Text>
        )}
        <Text size="xs" c="dimmed" fw={400} style={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(payout.createdAt)}
        </Text>
      </Stack>
    ),
  },
  {
    key: 'destination',
    header: 'To',
    cell: (payout) => (
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {describePayoutDestination(payout.destination)}
      </Text>
    ),
  },
  {
    key: 'status',
    header: 'Status',
    cell: (payout) => (
      <Stack gap={2} align="flex-start">
        <PayoutStatusBadge status={payout.status} />
        {payout.status === 'rejected' && payout.decisionReason && (
          <Text size="xs">Reason: {payout.decisionReason}</Text>
        )}
      </Stack>
    ),
  },
];

/** "Your withdrawals": newest first, updated live as staff send or reject them. */
export function MyPayoutsCard() {
  const headingId = useId();
  const payouts = useInfiniteQuery(myPayoutsQueryOptions);
  const items = payouts.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Title order={2} size="h3" id={headingId} mb="md">
        Your withdrawals
      </Title>
      {payouts.isPending ? (
        <LoadingState label="Loading your withdrawals" />
      ) : payouts.isError ? (
        <LoadFailed
          title="Your withdrawals did not load"
          error={payouts.error}
          isRetrying={payouts.isFetching}
          onRetry={() => payouts.refetch()}
        />
      ) : items.length === 0 ? (
        <EmptyState
          py="lg"
          size="sm"
          icon={<Landmark size={28} aria-hidden />}
          title="No withdrawals yet"
          description="Money you withdraw shows here until staff send it."
        />
      ) : (
        <>
          <DataTable
            label="Your withdrawals"
            columns={columns}
            rows={items}
            rowKey={(payout) => payout.id}
            minWidth={400}
          />
          <LoadMore
            hasNextPage={payouts.hasNextPage}
            isFetchingNextPage={payouts.isFetchingNextPage}
            onLoadMore={() => payouts.fetchNextPage()}
          />
        </>
      )}
    </Card>
  );
}
