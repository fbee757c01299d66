// The charts' styles and the swatches of their legend and tooltip, for this page alone.
import '@mantine/core/styles/ColorSwatch.css';
import '@mantine/charts/styles.css';
import { isCurrencyCode, toCurrencyCode } from '@coffer/contracts/currencies';
import { formatPlottedMoney, plottedMinor } from '@coffer/contracts/plotted-money';
import { queueLabels, queueNames } from '@coffer/contracts/queues';
import {
  type Reports,
  reportDaysMax,
  reportVolumeKinds,
  reportVolumeLabels,
} from '@coffer/contracts/reports';
import { todayUtc } from '@coffer/contracts/statements';
import { Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { reportsQueryOptions } from '../api.ts';
import { type ChartRow, ChartWithTable } from '../components/chart-with-table.tsx';

const dayMs = 24 * 60 * 60 * 1000;
const defaultDays = 30;
const palette = ['blue.6', 'teal.6', 'orange.6', 'grape.6', 'red.6', 'cyan.7', 'lime.7'];

const volumeSeries = reportVolumeKinds.map((kind, index) => ({
  name: kind,
  label: reportVolumeLabels[kind],
  color: palette[index % palette.length],
}));
const peopleSeries = [
  { name: 'newCustomers', label: 'New customers', color: 'blue.6' },
  { name: 'verificationsApproved', label: 'Verifications approved', color: 'teal.6' },
];
const queueSeries = queueNames.map((queue, index) => ({
  name: queue,
  label: queueLabels[queue],
  color: palette[index % palette.length],
}));

function daysBefore(date: string, days: number): string {
  return new Date(Date.parse(date) - days * dayMs).toISOString().slice(0, 10);
}

function ReportCharts({ report }: { report: Reports }) {
  const currency = toCurrencyCode(report.currency);
  const volumes: ChartRow[] = report.days.map((day) => ({
    date: day.date,
    ...Object.fromEntries(
      reportVolumeKinds.map((kind) => [kind, plottedMinor(day.volumesMinor[kind])]),
    ),
  }));
  const people: ChartRow[] = report.days.map(({ date, newCustomers, verificationsApproved }) => ({
    date,
    newCustomers,
    verificationsApproved,
  }));
  const queues: ChartRow[] = report.days.map((day) => ({
    date: day.date,
    ...Object.fromEntries(queueNames.map((queue) => [queue, day.openQueues?.[queue] ?? null])),
  }));
  const count = (value: number) => value.toLocaleString('en-US');
  return (
    <>
      <ChartWithTable
        title={`Daily volumes in ${report.currency}`}
        shape="stacked-bars"
        rows={volumes}
        series={volumeSeries}
        formatValue={(value) => formatPlottedMoney(value, currency, { currencyDisplay: 'code' })}
      />
      <ChartWithTable
        title="New customers and verifications"
        shape="bars"
        rows={people}
        series={peopleSeries}
        formatValue={count}
      />
      <ChartWithTable
        title="Open queue sizes"
        shape="lines"
        rows={queues}
        series={queueSeries}
        formatValue={count}
      />
    </>
  );
}

/**
 * How the institution is doing (issue #30 item 6): per day of a period, what each kind of
 * payment moved in a currency, new customers, verifications approved and the queues' sizes,
 * each as a chart and a table. The chart library loads with this page and no other.
 */
export function ReportsPage() {
  usePageTitle('Reports');
  const [searchParams, setSearchParams] = useSearchParams();
  const to = searchParams.get('to') ?? todayUtc();
  const from = searchParams.get('from') ?? daysBefore(to, defaultDays - 1);
  const currency = searchParams.get('currency') ?? 'USD';
  const report = useQuery(reportsQueryOptions({ from, to, currency }));
  const change = (name: 'from' | 'to' | 'currency', value: string) => {
    const next = new URLSearchParams({ from, to, currency });
    next.set(name, value);
    setSearchParams(next, { preventScrollReset: true });
  };

  return (
    <Stack gap="lg">
      <Title order={1}>Reports</Title>
      <Group align="flex-end" gap="sm">
        <TextInput
          type="date"
          label="From"
          value={from}
          max={to}
          onChange={(event) =>
            event.currentTarget.value && change('from', event.currentTarget.value)
          }
        />
        <TextInput
          type="date"
          label="To"
          value={to}
          min={from}
          onChange={(event) => event.currentTarget.value && change('to', event.currentTarget.value)}
        />
        <TextInput
          label="Currency"
          defaultValue={currency}
          maxLength={3}
          w={110}
          onChange={(event) => {
            const code = event.currentTarget.value.toUpperCase();
            if (isCurrencyCode(code)) change('currency', code);
          }}
        />
      </Group>
      <Text size="sm" c="dimmed">
        Days of the institution’s time zone; one report covers at most {reportDaysMax} days.
      </Text>
      {report.isError ? (
        <LoadFailed
          title="The report did not load"
          error={report.error}
          isRetrying={report.isFetching}
          onRetry={() => report.refetch()}
        />
      ) : report.isPending ? (
        <Text c="dimmed">Loading the report…</Text>
      ) : (
        <ReportCharts report={report.data} />
      )}
    </Stack>
  );
}
