import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { BarChart, type ChartSeries, LineChart } from '@mantine/charts';
import { Box, Group, Paper, Title, VisuallyHidden } from '@mantine/core';
import { useId, useState } from 'react';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { SegmentedChoice } from '../../../components/segmented-choice.tsx';

/** One day of a chart: its date and a value per series (null where nothing was read). */
export type ChartRow = { date: string } & Record<string, number | string | null>;

type ChartWithTableProps = {
  title: string;
  shape: 'stacked-bars' | 'bars' | 'lines';
  rows: readonly ChartRow[];
  series: readonly (ChartSeries & { label: string })[];
  formatValue: (value: number) => string;
};

const views = [
  { value: 'chart', label: msg`Chart` },
  { value: 'table', label: msg`Table` },
] as const;
type View = (typeof views)[number]['value'];

/**
 * A chart of days with the same figures as a table: screen readers always get the table
 * (the drawing is hidden from them), and anyone can switch to it.
 */
export function ChartWithTable({ title, shape, rows, series, formatValue }: ChartWithTableProps) {
  const { t, i18n } = useLingui();
  const [view, setView] = useState<View>('chart');
  const viewChoices = views.map(({ value, label }) => ({ value, label: i18n._(label) }));
  const titleId = useId();
  const columns: Column<ChartRow>[] = [
    { key: 'date', header: t`Day`, cell: (row) => row.date },
    ...series.map(
      (entry): Column<ChartRow> => ({
        key: entry.name,
        header: entry.label,
        align: 'right',
        cell: (row) => {
          const value = row[entry.name];
          return typeof value === 'number' ? formatValue(value) : t`Not read`;
        },
      }),
    ),
  ];
  const label = t`${title}, by day`;
  const chartProps = {
    h: 280,
    data: [...rows],
    dataKey: 'date',
    series: [...series],
    valueFormatter: formatValue,
    withLegend: true,
    legendProps: { verticalAlign: 'bottom' as const },
    tickLine: 'y' as const,
    // As wide as its longest label ("USD 120,000.00"): a fixed width cut them on a phone.
    // Whole ticks: "1.5 new customers" is no figure anyone has.
    yAxisProps: { width: 'auto' as const, allowDecimals: false },
  };
  // The drawing is hidden from screen readers, so nothing in it may take the focus either.
  const quiet = { accessibilityLayer: false };
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={titleId}>
      <Group justify="space-between" mb="sm" gap="sm">
        <Title order={2} size="h4" id={titleId}>
          {title}
        </Title>
        <SegmentedChoice
          label={t`Show ${title} as`}
          data={viewChoices}
          value={view}
          onChange={setView}
        />
      </Group>
      {view === 'table' ? (
        <DataTable
          label={label}
          columns={columns}
          rows={rows}
          rowKey={(row) => row.date}
          minWidth={160 + 120 * series.length}
        />
      ) : (
        <>
          <Box aria-hidden data-testid="report-chart">
            {shape === 'lines' ? (
              <LineChart {...chartProps} connectNulls={false} lineChartProps={quiet} />
            ) : (
              <BarChart
                {...chartProps}
                type={shape === 'stacked-bars' ? 'stacked' : 'default'}
                barChartProps={quiet}
              />
            )}
          </Box>
          {/* Hidden from sight, so a plain table: the visible one scrolls on a phone, and a
              scrolling box nobody can see or reach by keyboard is an accessibility fault. */}
          <VisuallyHidden>
            <table aria-label={label}>
              <thead>
                <tr>
                  {columns.map((column) => (
                    <th key={column.key}>{column.header}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.date}>
                    {columns.map((column) => (
                      <td key={column.key}>{column.cell(row)}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </VisuallyHidden>
        </>
      )}
    </Paper>
  );
}
