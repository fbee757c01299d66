import { Trans, useLingui } from '@lingui/react/macro';
import { Card, Center, EmptyState, Loader, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Inbox } from 'lucide-react';
import { useId } from 'react';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { recentDepositsQueryOptions } from '../api.ts';
import { TransactionsTable } from './transactions-table.tsx';

/** The customer's latest deposits; a new one appears live when staff record it. */
export function RecentDepositsCard() {
  const { t } = useLingui();
  const headingId = useId();
  const deposits = useQuery(recentDepositsQueryOptions);
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Title order={2} id={headingId} mb="md">
        <Trans>Recent Transactions</Trans>
      </Title>
      {deposits.isPending && (
        <Center py="xl">
          <Loader aria-label={t`Loading recent transactions`} />
        </Center>
      )}
      {deposits.isError && (
        <LoadFailed
          title={t`Recent transactions did not load`}
          error={deposits.error}
          isRetrying={deposits.isFetching}
          onRetry={() => deposits.refetch()}
        />
      )}
      {deposits.data?.items.length === 0 && (
        <EmptyState
          py="xl"
          size="sm"
          icon={<Inbox size={28} aria-hidden />}
          title={t`No recent transactions`}
        />
      )}
      {deposits.data && deposits.data.items.length > 0 && (
        <TransactionsTable label={t`Recent Transactions`} transactions={deposits.data.items} />
      )}
    </Card>
  );
}
