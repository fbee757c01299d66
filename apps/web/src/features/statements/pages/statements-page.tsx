import {
  resolveStatementPeriod,
  type StatementPeriod,
  statementFileName,
} from '@coffer/contracts/statements';
import { todayIn } from '@coffer/contracts/time-zones';
import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Card, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { FileSpreadsheet, FileText } from 'lucide-react';
import { useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ChoiceSelect } from '../../../components/choice-select.tsx';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { formatUtcDay } from '../../../lib/dates.ts';
import { useMe } from '../../../lib/session.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { walletsQueryOptions } from '../../wallet/index.ts';
import { type StatementRange, statementQueryOptions, statementUrl } from '../api.ts';
import { type PeriodChoice, PeriodPicker } from '../components/period-picker.tsx';
import { StatementPreview } from '../components/statement-preview.tsx';

function rangeOf(choice: PeriodChoice): StatementRange {
  return choice.mode === 'month' ? { month: choice.month } : { from: choice.from, to: choice.to };
}

/** Keeps only the fields the API checks, so an empty one counts as missing. */
function queryOf(choice: PeriodChoice) {
  const range = rangeOf(choice);
  return Object.fromEntries(Object.entries(range).filter(([, value]) => value !== ''));
}

function periodText(period: StatementPeriod, i18n: I18n): string {
  const from = formatUtcDay(period.from);
  const to = formatUtcDay(period.to);
  return period.from === period.to ? from : i18n._(msg`${from} to ${to}`);
}

function DownloadLinks({
  range,
  period,
  walletId,
}: {
  range: StatementRange | null;
  period: StatementPeriod | null;
  walletId: string | null;
}) {
  const { t } = useLingui();
  const formats = [
    { format: 'csv', label: t`Download CSV`, icon: FileSpreadsheet },
    { format: 'pdf', label: t`Download PDF`, icon: FileText },
  ] as const;
  return (
    <Group gap="sm">
      {formats.map(({ format, label, icon: Icon }) =>
        range && period ? (
          // A plain link: the browser's own download handles the file, however long it is.
          <Button
            key={format}
            component="a"
            href={statementUrl(range, format, walletId)}
            download={statementFileName(period, format)}
            variant={format === 'csv' ? 'filled' : 'light'}
            leftSection={<Icon size={18} aria-hidden />}
          >
            {label}
          </Button>
        ) : (
          <Button key={format} disabled leftSection={<Icon size={18} aria-hidden />}>
            {label}
          </Button>
        ),
      )}
    </Group>
  );
}

function PreviewCard({
  range,
  period,
  walletId,
}: {
  range: StatementRange;
  period: StatementPeriod;
  walletId: string | null;
}) {
  const { t, i18n } = useLingui();
  const headingId = useId();
  const statement = useQuery(statementQueryOptions(range, walletId));
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Title order={2} id={headingId} mb="md">
        {periodText(period, i18n)}
      </Title>
      {statement.isPending && (
        <Center py="md">
          <Loader aria-label={t`Loading the statement`} />
        </Center>
      )}
      {statement.isError && (
        <LoadFailed
          title={t`The statement did not load`}
          error={statement.error}
          isRetrying={statement.isFetching}
          onRetry={() => statement.refetch()}
        />
      )}
      {statement.data && <StatementPreview statement={statement.data} />}
    </Card>
  );
}

export function StatementsPage() {
  const { t } = useLingui();
  usePageTitle(t`Statements`);
  const headingId = useId();
  // The customer's days (their profile's zone), as the server cuts the statement.
  const today = todayIn(useMe()?.timeZone ?? 'UTC');
  const [choice, setChoice] = useState<PeriodChoice>(() => ({
    mode: 'month',
    month: today.slice(0, 7),
    from: `${today.slice(0, 7)}-01`,
    to: today,
  }));
  const resolved = resolveStatementPeriod(queryOf(choice), today);
  const period = 'period' in resolved ? resolved.period : null;
  const range = period ? rangeOf(choice) : null;
  // `?wallet=`: one of the customer's wallets (issue #33); without it, the main wallet.
  const [searchParams, setSearchParams] = useSearchParams();
  const walletId = searchParams.get('wallet');
  const wallets = useQuery(walletsQueryOptions);

  return (
    <Stack gap="lg" maw={960}>
      <Stack gap={4}>
        <Title order={1}>
          <Trans>Statements</Trans>
        </Title>
        <Text c="dimmed">
          <Trans>
            Pick a month or a date range, then download it. A statement has the opening balance,
            every entry and the closing balance; its days are whole days in UTC.
          </Trans>
        </Text>
      </Stack>
      <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
        <Title order={2} id={headingId} mb="md">
          <Trans>Choose a period</Trans>
        </Title>
        <Stack gap="lg">
          {wallets.data && wallets.data.items.length > 1 && (
            <ChoiceSelect
              label={t`Wallet`}
              placeholder={t`Choose a wallet`}
              w={320}
              data={wallets.data.items.map((wallet) => ({
                value: wallet.id,
                label: `${wallet.currency} · ${wallet.accountNumber}`,
              }))}
              value={walletId ?? wallets.data.items[0]?.id ?? null}
              onChange={(value) => value && setSearchParams({ wallet: value }, { replace: true })}
            />
          )}
          <PeriodPicker choice={choice} onChange={setChoice} resolved={resolved} today={today} />
          <DownloadLinks range={range} period={period} walletId={walletId} />
        </Stack>
      </Card>
      {range && period && <PreviewCard range={range} period={period} walletId={walletId} />}
    </Stack>
  );
}
