import type { CardSpending as Spending } from '@coffer/contracts/cards';
import { Trans, useLingui } from '@lingui/react/macro';
import { Progress, Stack, Text } from '@mantine/core';
import { formatDateTime } from '../../../lib/dates.ts';
import { formatAmountMinor } from '../../../lib/money.ts';

/** Spending against the weekly limit, and when the week starts over (Monday 00:00 UTC). */
export function CardSpending({ spending, currency }: { spending: Spending; currency: string }) {
  const { t } = useLingui();
  const { spentThisWeekMinor, weeklyLimitMinor } = spending;
  // Whole percent from minor units, exactly: no float ever touches the amounts.
  const percent =
    weeklyLimitMinor > 0n ? Number((spentThisWeekMinor * 100n) / weeklyLimitMinor) : 100;
  const leftMinor =
    weeklyLimitMinor > spentThisWeekMinor ? weeklyLimitMinor - spentThisWeekMinor : 0n;
  const spent = formatAmountMinor(spentThisWeekMinor, currency);
  const limit = formatAmountMinor(weeklyLimitMinor, currency);
  const left = formatAmountMinor(leftMinor, currency);
  const resetsAt = formatDateTime(spending.resetsAt);
  return (
    <Stack gap={6}>
      <Text size="sm" fw={600}>
        <Trans>
          Spent this week: <bdi>{spent}</bdi> of <bdi>{limit}</bdi>
        </Trans>
      </Text>
      <Progress
        value={Math.min(percent, 100)}
        aria-label={t`Spent of the weekly limit`}
        color={percent >= 90 ? 'red' : 'blue'}
      />
      <Text size="xs" c="dimmed">
        <Trans>
          <bdi>{left}</bdi> left. The limit resets {resetsAt} (Monday 00:00 UTC).
        </Trans>
      </Text>
    </Stack>
  );
}
