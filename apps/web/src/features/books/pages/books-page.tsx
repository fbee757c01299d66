import type { TrialBalance } from '@coffer/contracts/books';
import { todayUtc } from '@coffer/contracts/statements';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { FileSpreadsheet } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { withQuery } from '../../../lib/back-office.ts';
import { intlLocale } from '../../../lib/i18n.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { useMe } from '../../../lib/session.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { trialBalancePath, trialBalanceQueryOptions } from '../api.ts';

type CurrencySection = TrialBalance['currencies'][number];

/** The trial balance's columns: the account, then its four amounts. */
const columnHeadings: { label: MessageDescriptor; isAmount: boolean }[] = [
  { label: msg`GL code`, isAmount: false },
  { label: msg`Account`, isAmount: false },
  { label: msg`Opening`, isAmount: true },
  { label: msg`Debits`, isAmount: true },
  { label: msg`Credits`, isAmount: true },
  { label: msg`Closing`, isAmount: true },
];

function CurrencyTable({ section }: { section: CurrencySection }) {
  const { t, i18n } = useLingui();
  const { currency } = section;
  const money = (amountMinor: bigint) =>
    formatAmountMinor(amountMinor, currency, { currencyDisplay: 'code' });
  return (
    <Paper withBorder p="md">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          {section.currency}
        </Title>
        <Text fw={600} c={section.isBalanced ? undefined : 'red.9'}>
          {section.isBalanced ? <Trans>Balanced</Trans> : <Trans>Does not balance</Trans>}
        </Text>
      </Group>
      <Table.ScrollContainer minWidth={640} type="native">
        <Table striped aria-label={t`Trial balance in ${currency}`}>
          <Table.Thead>
            <Table.Tr>
              {columnHeadings.map(({ label, isAmount }) => (
                <Table.Th key={label.id} ta={isAmount ? 'right' : undefined}>
                  {i18n._(label)}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {section.rows.map((row) => (
              <Table.Tr key={row.glCode}>
                <Table.Td>{row.glCode}</Table.Td>
                <Table.Td>{row.glName}</Table.Td>
                <Table.Td ta="right">{money(row.openingMinor)}</Table.Td>
                <Table.Td ta="right">{money(row.debitsMinor)}</Table.Td>
                <Table.Td ta="right">{money(row.creditsMinor)}</Table.Td>
                <Table.Td ta="right">{money(row.closingMinor)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
          <Table.Tfoot>
            <Table.Tr>
              <Table.Th colSpan={3}>
                <Trans>Total</Trans>
              </Table.Th>
              <Table.Th ta="right" data-testid={`total-debits-${section.currency}`}>
                {money(section.totalDebitsMinor)}
              </Table.Th>
              <Table.Th ta="right" data-testid={`total-credits-${section.currency}`}>
                {money(section.totalCreditsMinor)}
              </Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Tfoot>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}

function ProvisionalNote({ date, timeZone }: { date: string; timeZone: string }) {
  const day = <bdi>{date}</bdi>;
  return (
    <Trans>
      {day} is not closed yet: these figures are computed live and change as money moves. The day
      closes at midnight ({timeZone}).
    </Trans>
  );
}

function ClosedNote({
  date,
  timeZone,
  closedAt,
}: {
  date: string;
  timeZone: string;
  closedAt: string;
}) {
  const day = <bdi>{date}</bdi>;
  const closedTime = new Date(closedAt).toLocaleString(intlLocale());
  return (
    <Trans>
      Closed {day} ({timeZone}) at {closedTime}.
    </Trans>
  );
}

/**
 * The operator's books: any day's trial balance per currency, closed days from their
 * snapshot and today live (provisional), with CSV downloads. Read-only for all staff; the
 * general-ledger export is the admin's.
 */
export function BooksPage() {
  const { t } = useLingui();
  usePageTitle(t`Books`);
  const me = useMe();
  const [searchParams, setSearchParams] = useSearchParams();
  const date = searchParams.get('date') ?? todayUtc();
  const balance = useQuery(trialBalanceQueryOptions(date));

  return (
    <Stack gap="lg">
      <Title order={1}>
        <Trans>Books</Trans>
      </Title>
      <Group align="flex-end" gap="sm">
        <TextInput
          type="date"
          label={t`Day`}
          value={date}
          max={todayUtc()}
          onChange={(event) => {
            const value = event.currentTarget.value;
            if (value) setSearchParams({ date: value }, { preventScrollReset: true });
          }}
        />
        <Button
          component="a"
          href={withQuery(trialBalancePath, { date, format: 'csv' })}
          download={`trial-balance-${date}.csv`}
          leftSection={<FileSpreadsheet size={18} aria-hidden />}
        >
          <Trans>Download trial balance (CSV)</Trans>
        </Button>
        {me?.role === 'admin' && (
          <Button
            component="a"
            variant="light"
            href={withQuery('/api/v1/admin/books/journal.csv', { from: date, to: date })}
            download={`journal-${date}_${date}.csv`}
            leftSection={<FileSpreadsheet size={18} aria-hidden />}
          >
            <Trans>Download journal lines (CSV)</Trans>
          </Button>
        )}
      </Group>
      {balance.isError ? (
        <LoadFailed
          title={t`The trial balance did not load`}
          error={balance.error}
          isRetrying={balance.isFetching}
          onRetry={() => balance.refetch()}
        />
      ) : balance.isPending ? (
        <Text c="dimmed">
          <Trans>Loading the trial balance…</Trans>
        </Text>
      ) : (
        <>
          {balance.data.status === 'provisional' ? (
            <Alert color="yellow" title={t`Provisional`}>
              <ProvisionalNote date={balance.data.date} timeZone={balance.data.timeZone} />
            </Alert>
          ) : (
            <Text size="sm" c="dimmed" data-testid="books-status">
              <ClosedNote
                date={balance.data.date}
                timeZone={balance.data.timeZone}
                closedAt={balance.data.closedAt ?? ''}
              />
            </Text>
          )}
          {balance.data.currencies.length === 0 ? (
            <Text>
              <Trans>No money moved on or before this day.</Trans>
            </Text>
          ) : (
            balance.data.currencies.map((section) => (
              <CurrencyTable key={section.currency} section={section} />
            ))
          )}
        </>
      )}
    </Stack>
  );
}
