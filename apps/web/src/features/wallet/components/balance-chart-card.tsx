import type { BalanceHistory } from '@coffer/contracts/wallet';
import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Card, Skeleton, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { formatUtcDay } from '../../../lib/dates.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { balanceHistoryQueryOptions } from '../api.ts';
import { BalanceChart } from './balance-chart.tsx';
import { useBalanceVisibility } from './use-balance-visibility.ts';

/** The chart's own height (balance-chart.module.css): the placeholder takes the same room. */
const chartHeightPx = 220;

/**
 * What the chart shows, in words: for screen readers, and for anyone at a glance. The
 * chart plots the ledger balance, which counts funds held for pending withdrawals; when
 * there are any it says so, since the Available Balance above leaves them out.
 */
function chartSummary(history: BalanceHistory, i18n: I18n): string {
  const first = history.points[0];
  const last = history.points.at(-1);
  if (!first || !last) return i18n._(msg`No balance history yet.`);
  const from = formatAmountMinor(first.balanceMinor, history.currency);
  const to = formatAmountMinor(last.balanceMinor, history.currency);
  const day = formatUtcDay(first.date);
  const { heldMinor } = history;
  if (heldMinor <= 0n) return i18n._(msg`${from} at the end of ${day}, ${to} now.`);
  const held = formatAmountMinor(heldMinor, history.currency);
  return i18n._(
    msg`${from} at the end of ${day}, ${to} now, including ${held} held for pending withdrawals.`,
  );
}

/**
 * The balance at the end of each of the last 30 days. While it loads, placeholders take
 * the summary's line and the chart's height, so the cards below do not move.
 */
export function BalanceChartCard() {
  const { t, i18n } = useLingui();
  const headingId = useId();
  const history = useQuery(balanceHistoryQueryOptions);
  const [isBalanceVisible] = useBalanceVisibility();
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Title order={2} id={headingId} mb={4}>
        <Trans>Balance, last 30 days</Trans>
      </Title>
      {history.isError ? (
        <LoadFailed
          title={t`The chart did not load`}
          error={history.error}
          isRetrying={history.isFetching}
          onRetry={() => history.refetch()}
        />
      ) : (
        <>
          {/* With amounts hidden the line says so at once; it needs no data. */}
          <Text size="sm" c="dimmed" mb="sm">
            {!isBalanceVisible ? (
              t`Amounts are hidden: show your balance to see them.`
            ) : history.data ? (
              chartSummary(history.data, i18n)
            ) : (
              <Skeleton component="span" display="inline-block" h="1em" w="16em" maw="100%" />
            )}
          </Text>
          {history.data ? (
            <BalanceChart history={history.data} areAmountsShown={isBalanceVisible} />
          ) : (
            <Skeleton h={chartHeightPx} role="status" aria-label={t`Loading the chart`} />
          )}
        </>
      )}
    </Card>
  );
}
