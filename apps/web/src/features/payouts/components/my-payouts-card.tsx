import type { Payout } from '@coffer/contracts/payouts';
import { Trans, useLingui } from '@lingui/react/macro';
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
import { payoutDestinationLine } from '../labels.ts';
import { PayoutStatusBadge } from './payout-status-badge.tsx';

function AmountCell({ payout }: { payout: Payout }) {
  const fee = formatAmountMinor(payout.feeMinor, payout.currency);
  return (
    <Stack gap={0}>
      <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
        {formatAmountMinor(payout.amountMinor, payout.currency)}
      </Text>
      {payout.feeMinor !== 0n && (
        <Text size="xs" style={{ whiteSpace: 'nowrap' }}>
          <Trans>+ {fee} fee</Trans>
        </Text>
      )}
      <Text size="xs" c="dimmed" fw={400} style={{ whiteSpace: 'nowrap' }}>
        {formatDateTime(payout.createdAt)}
      </Text>
    </Stack>
  );
}

function StatusCell({ payout }: { payout: Payout }) {
  const reason = payout.decisionReason;
  return (
    <Stack gap={2} align="flex-start">
      <PayoutStatusBadge status={payout.status} />
      {payout.status === 'rejected' && reason && (
        <Text size="xs">
          <Trans>Reason: {reason}</Trans>
        </Text>
      )}
    </Stack>
  );
}

function usePayoutColumns(): Column<Payout>[] {
  const { t, i18n } = useLingui();
  return [
    { key: 'amount', header: t`Amount`, cell: (payout) => <AmountCell payout={payout} /> },
    {
      key: 'destination',
      header: t`To`,
      cell: (payout) => (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {i18n._(payoutDestinationLine(payout.destination))}
        </Text>
      ),
    },
    { key: 'status', header: t`Status`, cell: (payout) => <StatusCell payout={payout} /> },
  ];
}

/** "Your withdrawals": newest first, updated live as staff send or reject them. */
export function MyPayoutsCard() {
  const { t } = useLingui();
  const headingId = useId();
  const columns = usePayoutColumns();
  const payouts = useInfiniteQuery(myPayoutsQueryOptions);
  const items = payouts.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Title order={2} size="h3" id={headingId} mb="md">
        <Trans>Your withdrawals</Trans>
      </Title>
      {payouts.isPending ? (
        <LoadingState label={t`Loading your withdrawals`} />
      ) : payouts.isError ? (
        <LoadFailed
          title={t`Your withdrawals did not load`}
          error={payouts.error}
          isRetrying={payouts.isFetching}
          onRetry={() => payouts.refetch()}
        />
      ) : items.length === 0 ? (
        <EmptyState
          py="lg"
          size="sm"
          icon={<Landmark size={28} aria-hidden />}
          title={t`No withdrawals yet`}
          description={t`Money you withdraw shows here until staff send it.`}
        />
      ) : (
        <>
          <DataTable
            label={t`Your withdrawals`}
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
