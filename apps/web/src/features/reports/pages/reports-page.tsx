// The charts' styles and the swatches of their legend and tooltip, for this page alone.
import '@mantine/core/styles/ColorSwatch.css';
import '@mantine/charts/styles.css';
import { isCurrencyCode, toCurrencyCode } from '@coffer/contracts/currencies';
import { formatPlottedMoney, plottedMinor } from '@coffer/contracts/plotted-money';
import { queueNames } from '@coffer/contracts/queues';
import {
  type Reports,
  type ReportVolumeKind,
  reportDaysMax,
  reportVolumeKinds,
} from '@coffer/contracts/reports';
import { todayUtc } from '@coffer/contracts/statements';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { intlLocale } from '../../../lib/i18n.ts';
import { queueLabels } from '../../../lib/queue-labels.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { reportsQueryOptions } from '../api.ts';
import { type ChartRow, ChartWithTable } from '../components/chart-with-table.tsx';

const dayMs = 24 * 60 * 60 * 1000;
const defaultDays = 30;
const palette = ['blue.6', 'teal.6', 'orange.6', 'grape.6', 'red.6', 'cyan.7', 'lime.7'];

/** What each kind of payment is called in the charts, in the reader's language. */
const volumeNames: Record<ReportVolumeKind, MessageDescriptor> = {
  deposit: msg`Deposits`,
  transfer: msg`Quick Pay`,
  payout: msg`Payouts`,
  bill_payment: msg`Bill payments`,
  card_purchase: msg`Card purchases`,
  loan_disbursement: msg`Loan disbursements`,
  loan_repayment: msg`Loan repayments`,
};

/** The charts' series, named in the reader's language. */
function useSeries() {
  const { t, i18n } = useLingui();
  return {
    volumes: reportVolumeKinds.map((kind, index) => ({
      name: kind,
      label: i18n._(volumeNames[kind]),
      color: palette[index % palette.length],
    })),
    people: [
      { name: 'newCustomers', label: t`New customers`, color: 'blue.6' },
      { name: 'verificationsApproved', label: t`Verifications approved`, color: 'teal.6' },
    ],
    queues: queueNames.map((queue, index) => ({
      name: queue,
      label: i18n._(queueLabels[queue]),
      color: palette[index % palette.length],
    })),
  };
}

function daysBefore(date: string, days: number): string {
  return new Date(Date.parse(date) - days * dayMs).toISOString().slice(0, 10);
}

function ReportCharts({ report }: { report: Reports }) {
  const { t } = useLingui();
  const series = useSeries();
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
  const locale = intlLocale();
  const count = (value: number) => value.toLocaleString(locale);
  return (
    <>
      <ChartWithTable
        title={t`Daily volumes in ${currency}`}
        shape="stacked-bars"
        rows={volumes}
        series={series.volumes}
        formatValue={(value) =>
          formatPlottedMoney(value, currency, { currencyDisplay: 'code', locale })
        }
      />
      <ChartWithTable
        title={t`New customers and verifications`}
        shape="bars"
        rows={people}
        series={series.people}
        formatValue={count}
      />
      <ChartWithTable
        title={t`Open queue sizes`}
        shape="lines"
        rows={queues}
        series={series.queues}
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
  const { t } = useLingui();
  usePageTitle(t`Reports`);
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
      <Title order={1}>
        <Trans>Reports</Trans>
      </Title>
      <Group align="flex-end" gap="sm">
        <TextInput
          type="date"
          label={t`From`}
          value={from}
          max={to}
          onChange={(event) =>
            event.currentTarget.value && change('from', event.currentTarget.value)
          }
        />
        <TextInput
          type="date"
          label={t`To`}
          value={to}
          min={from}
          onChange={(event) => event.currentTarget.value && change('to', event.currentTarget.value)}
        />
        <TextInput
          label={t`Currency`}
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
        <Trans>
          Days of the institution’s time zone; one report covers at most {reportDaysMax} days.
        </Trans>
      </Text>
      {report.isError ? (
        <LoadFailed
          title={t`The report did not load`}
          error={report.error}
          isRetrying={report.isFetching}
          onRetry={() => report.refetch()}
        />
      ) : report.isPending ? (
        <Text c="dimmed">
          <Trans>Loading the report…</Trans>
        </Text>
      ) : (
        <ReportCharts report={report.data} />
      )}
    </Stack>
  );
}
