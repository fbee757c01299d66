import '@mantine/charts/styles.css';
import type { BalanceHistory } from '@coffer/contracts/wallet';
import { AreaChart } from '@mantine/charts';
import { formatAmountMinor } from '../../../lib/money.ts';

/** The points are UTC days (YYYY-MM-DD): labelled in UTC, so no day shifts by a time zone. */
const dayLabelFormat = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});

function dayLabel(date: string): string {
  return dayLabelFormat.format(new Date(`${date}T00:00:00Z`));
}

/**
 * The 30-day balance as an area chart. Loaded on its own (React.lazy): the charting library
 * is larger than the rest of the dashboard. Values are plotted in minor units, which a
 * Number holds exactly (every amount is far below 2^53), and formatted back from them.
 */
export default function BalanceChart({
  history,
  areAmountsShown,
}: {
  history: BalanceHistory;
  /** Without them the chart keeps its shape but has no amounts on the axis or tooltip. */
  areAmountsShown: boolean;
}) {
  const data = history.points.map((point) => ({
    day: dayLabel(point.date),
    balance: Number(point.balanceMinor),
  }));
  return (
    <AreaChart
      h={220}
      data={data}
      dataKey="day"
      series={[{ name: 'balance', label: 'Balance', color: 'coffer.6' }]}
      curveType="stepAfter"
      withDots={false}
      withYAxis={areAmountsShown}
      withTooltip={areAmountsShown}
      withGradient
      gridAxis="y"
      tickLine="none"
      yAxisProps={{ width: 88, allowDecimals: false }}
      xAxisProps={{ minTickGap: 24 }}
      valueFormatter={(valueMinor) =>
        formatAmountMinor(BigInt(Math.round(valueMinor)), history.currency)
      }
    />
  );
}
