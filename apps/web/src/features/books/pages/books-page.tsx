import type { TrialBalance } from '@coffer/contracts/books';
import { toCurrencyCode } from '@coffer/contracts/currencies';
import { formatMoney } from '@coffer/contracts/money';
import { todayUtc } from '@coffer/contracts/statements';
import { Alert, Button, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { FileSpreadsheet } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { withQuery } from '../../../lib/back-office.ts';
import { useMe } from '../../../lib/session.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { trialBalancePath, trialBalanceQueryOptions } from '../api.ts';

type CurrencySection = TrialBalance['currencies'][number];

function CurrencyTable({ section }: { section: CurrencySection }) {
  const currency = toCurrencyCode(section.currency);
  const money = (amountMinor: bigint) =>
    formatMoney({ amountMinor, currency }, { currencyDisplay: 'code' });
  return (
    <Paper withBorder p="md">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          {section.currency}
        </Title>
        <Text fw={600} c={section.isBalanced ? undefined : 'red.9'}>
          {section.isBalanced ? 'Balanced' : 'Does not balance'}
        </Text>
      </Group>
      <Table.ScrollContainer minWidth={640} type="native">
        <Table striped aria-label={`Trial balance in ${section.currency}`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>GL code</Table.Th>
              <Table.Th>Account</Table.Th>
              <Table.Th ta="right">Opening</Table.Th>
              <Table.Th ta="right">Debits</Table.Th>
              <Table.Th ta="right">Credits</Table.Th>
              <Table.Th ta="right">Closing</Table.Th>
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
              <Table.Th colSpan={3}>Total</Table.Th>
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

/**
 * The operator's books: any day's trial balance per currency, closed days from their
 * snapshot and today live (provisional), with CSV downloads. Read-only for all staff; the
 * general-ledger export is the admin's.
 */
export function BooksPage() {
  usePageTitle('Books');
  const me = useMe();
  const [searchParams, setSearchParams] = useSearchParams();
  const date = searchParams.get('date') ?? todayUtc();
  const balance = useQuery(trialBalanceQueryOptions(date));

  return (
    <Stack gap="lg">
      <Title order={1}>Books</Title>
      <Group align="flex-end" gap="sm">
        <TextInput
          type="date"
          label="Day"
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
          Download trial balance (CSV)
        </Button>
        {me?.role === 'admin' && (
          <Button
            component="a"
            variant="light"
            href={withQuery('/api/v1/admin/books/journal.csv', { from: date, to: date })}
            download={`journal-${date}_${date}.csv`}
            leftSection={<FileSpreadsheet size={18} aria-hidden />}
          >
            Download journal lines (CSV)
          </Button>
        )}
      </Group>
      {balance.isError ? (
        <LoadFailed
          title="The trial balance did not load"
          error={balance.error}
          isRetrying={balance.isFetching}
          onRetry={() => balance.refetch()}
        />
      ) : balance.isPending ? (
        <Text c="dimmed">Loading the trial balance…</Text>
      ) : (
        <>
          {balance.data.status === 'provisional' ? (
            <Alert color="yellow" title="Provisional">
              {balance.data.date} is not closed yet: these figures are computed live and change as
              money moves. The day closes at midnight ({balance.data.timeZone}).
            </Alert>
          ) : (
            <Text size="sm" c="dimmed" data-testid="books-status">
              Closed {balance.data.date} ({balance.data.timeZone}) at{' '}
              {new Date(balance.data.closedAt ?? '').toLocaleString()}.
            </Text>
          )}
          {balance.data.currencies.length === 0 ? (
            <Text>No money moved on or before this day.</Text>
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
