import { type Spending, type SpendingCategory, spendingCategories } from '@coffer/contracts/wallet';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui as useLinguiContext } from '@lingui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Card, Skeleton, Title, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { dateTimeFormat } from '../../../lib/dates.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { spendingQueryOptions } from '../api.ts';
import { heightPercent } from './balance-chart-geometry.ts';
import classes from './spending-card.module.css';
import { useBalanceVisibility } from './use-balance-visibility.ts';

/** The chart's rows' height (spending-card.module.css): the placeholder takes the same room. */
const chartHeightPx = 220;

type Month = Spending['months'][number];

const categoryMessages: Record<SpendingCategory, MessageDescriptor> = {
  transfer: msg`Quick Pay`,
  bill_payment: msg`Bills`,
  card_purchase: msg`Cards`,
  payout: msg`Payouts`,
};

/** A month (YYYY-MM, a UTC month) as the page's language writes it: "Nov 2026", "11月 2026". */
function monthLabel(month: string): string {
  return dateTimeFormat({ month: 'short', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${month}-01T00:00:00Z`),
  );
}

function totalOf(month: Month): bigint {
  return spendingCategories.reduce((sum, category) => sum + month.spentMinor[category], 0n);
}

/**
 * Each month as a bar of its categories, in HTML and CSS: rendered by the server with the
 * page, no chart library (issue #30 item 6). The bars are a picture; the table under them,
 * for screen readers, holds the same figures.
 */
function SpendingBars({
  spending,
  areAmountsShown,
}: {
  spending: Spending;
  areAmountsShown: boolean;
}) {
  const { i18n } = useLinguiContext();
  // The longest bar spans the row; 1 keeps an empty half-year from dividing by zero.
  let topMinor = 1n;
  for (const month of spending.months) {
    if (totalOf(month) > topMinor) topMinor = totalOf(month);
  }
  const money = (amountMinor: bigint) =>
    areAmountsShown ? formatAmountMinor(amountMinor, spending.currency) : '••••';
  return (
    <>
      <ul className={classes.legend} aria-hidden>
        {spendingCategories.map((category) => (
          <li key={category} data-category={category}>
            {i18n._(categoryMessages[category])}
          </li>
        ))}
      </ul>
      <div className={classes.bars} aria-hidden>
        {spending.months.map((month) => (
          <div className={classes.month} key={month.month}>
            <span>{monthLabel(month.month)}</span>
            <div className={classes.bar}>
              {spendingCategories.map((category) =>
                month.spentMinor[category] > 0n ? (
                  <span
                    key={category}
                    data-category={category}
                    style={{ width: `${heightPercent(month.spentMinor[category], topMinor)}%` }}
                  />
                ) : null,
              )}
            </div>
            <span className={classes.total}>{money(totalOf(month))}</span>
          </div>
        ))}
      </div>
      {/* Hidden from sight, so a plain table: Mantine's would add its code to the page. */}
      <VisuallyHidden>
        <table>
          <caption>
            <Trans>Spending by month and category</Trans>
          </caption>
          <thead>
            <tr>
              <th>
                <Trans>Month</Trans>
              </th>
              {spendingCategories.map((category) => (
                <th key={category}>{i18n._(categoryMessages[category])}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {spending.months.map((month) => (
              <tr key={month.month}>
                <th scope="row">{monthLabel(month.month)}</th>
                {spendingCategories.map((category) => (
                  <td key={category}>{money(month.spentMinor[category])}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </VisuallyHidden>
    </>
  );
}

/** What left the wallet in each of the last six months, by category, beside the balance. */
export function SpendingCard() {
  const { t } = useLingui();
  const headingId = useId();
  const spending = useQuery(spendingQueryOptions);
  const [isBalanceVisible] = useBalanceVisibility();
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Title order={2} id={headingId} mb="sm">
        <Trans>Spending, last 6 months</Trans>
      </Title>
      {spending.isError ? (
        <LoadFailed
          title={t`Your spending did not load`}
          error={spending.error}
          isRetrying={spending.isFetching}
          onRetry={() => spending.refetch()}
        />
      ) : spending.data ? (
        <SpendingBars spending={spending.data} areAmountsShown={isBalanceVisible} />
      ) : (
        <Skeleton h={chartHeightPx} role="status" aria-label={t`Loading your spending`} />
      )}
    </Card>
  );
}
