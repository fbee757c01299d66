import type { BalanceHistory } from '@coffer/contracts/wallet';
import { Card, Skeleton, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useId } from 'react';
import { formatAmountMinor } from '../../../lib/money.ts';
import { balanceHistoryQueryOptions } from '../api.ts';
import { LoadFailed } from './load-failed.tsx';
import { useBalanceVisibility } from './use-balance-visibility.ts';

const BalanceChart = lazy(() => import('./balance-chart.tsx'));

const chartHeightPx = 220;

/** What the chart shows, in words: for screen readers, and for anyone at a glance. */
function ChartSummary({
  history,
  areAmountsShown,
}: {
  history: BalanceHistory;
  areAmountsShown: boolean;
}) {
  const first = history.points[0];
  const last = history.points.at(-1);
  if (!first || !last) return null;
  if (!areAmountsShown) {
    return (
      <Text size="sm" c="dimmed" mb="sm">
        Amounts are hidden: show your balance to see them.
      </Text>
    );
  }
  const from = formatAmountMinor(first.balanceMinor, history.currency);
  const to = formatAmountMinor(last.balanceMinor, history.currency);
  return (
    <Text size="sm" c="dimmed" mb="sm">
      {from} at the end of{' '}
      {new Date(`${first.date}T00:00:00Z`).toLocaleDateString(undefined, {
        dateStyle: 'medium',
        timeZone: 'UTC',
      })}
      , {to} now.
    </Text>
  );
}

/** The balance at the end of each of the last 30 days. */
export function BalanceChartCard() {
  const headingId = useId();
  const history = useQuery(balanceHistoryQueryOptions);
  const [isBalanceVisible] = useBalanceVisibility();
  const placeholder = <Skeleton h={chartHeightPx} aria-label="Loading the chart" />;
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Title order={2} id={headingId} mb={4}>
        Balance, last 30 days
      </Title>
      {history.isPending && placeholder}
      {history.isError && (
        <LoadFailed
          title="The chart did not load"
          error={history.error}
          isRetrying={history.isFetching}
          onRetry={() => history.refetch()}
        />
      )}
      {history.data && (
        <>
          <ChartSummary history={history.data} areAmountsShown={isBalanceVisible} />
          <Suspense fallback={placeholder}>
            <BalanceChart history={history.data} areAmountsShown={isBalanceVisible} />
          </Suspense>
        </>
      )}
    </Card>
  );
}
