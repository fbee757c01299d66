import type { CardSpending as Spending } from '@coffer/contracts/cards';
import { Progress, Stack, Text } from '@mantine/core';
import { formatDateTime } from '../../../lib/dates.ts';
import { formatAmountMinor } from '../../../lib/money.ts';

/** Spending against the weekly limit, and when the week starts over (Monday 00:00 UTC). */
export function CardSpending({ spending, currency }: { spending: Spending; currency: string }) {
  const { spentThisWeekMinor, weeklyLimitMinor } = spending;
  // Whole percent from minor units, exactly: no float ever touches the amounts.
  const percent =
    weeklyLimitMinor > 0n ? Number((spentThisWeekMinor * 100n) / weeklyLimitMinor) : 100;
  const leftMinor =
    weeklyLimitMinor > spentThisWeekMinor ? weeklyLimitMinor - spentThisWeekMinor : 0n;
  return (
    <Stack gap={6}>
      <Text size="sm" fw={600}>
        Spent this week: {formatAmountMinor(spentThisWeekMinor, currency)} of{' '}
        {formatAmountMinor(weeklyLimitMinor, currency)}
      </Text>
      <Progress
        value={Math.min(percent, 100)}
        aria-label="Spent of the weekly limit"
        color={percent >= 90 ? 'red' : 'blue'}
      />
      <Text size="xs" c="dimmed">
        {formatAmountMinor(leftMinor, currency)} left. The limit resets{' '}
        {formatDateTime(spending.resetsAt)} (Monday 00:00 UTC).
      </Text>
    </Stack>
  );
}
