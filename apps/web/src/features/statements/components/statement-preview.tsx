import { entryKindLabel } from '@coffer/contracts/ledger';
import type { Statement, StatementEntry } from '@coffer/contracts/statements';
import { Group, Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useId } from 'react';
import { ByScreen } from '../../../components/by-screen.tsx';
import { CardList } from '../../../components/card-list.tsx';
import { dateTimeFormat } from '../../../lib/dates.ts';
import { formatAmountMinor } from '../../../lib/money.ts';

const entriesLabel = 'Statement entries';

function Figure({
  label,
  amountMinor,
  currency,
}: {
  label: string;
  amountMinor: bigint;
  currency: string;
}) {
  const labelId = useId();
  return (
    <Paper withBorder p="sm" role="group" aria-labelledby={labelId}>
      <Text size="sm" c="dimmed" id={labelId}>
        {label}
      </Text>
      <Text fw={700} fz="lg" style={{ overflowWrap: 'anywhere' }}>
        {formatAmountMinor(amountMinor, currency)}
      </Text>
    </Paper>
  );
}

/** Credits with a plus and in green, debits with a minus and in red. */
function SignedAmount({ amountMinor, currency }: { amountMinor: bigint; currency: string }) {
  const isCredit = amountMinor > 0n;
  return (
    <Text
      span
      size="sm"
      fw={600}
      c={
        isCredit ? 'var(--mantine-color-green-light-color)' : 'var(--mantine-color-red-light-color)'
      }
      style={{ whiteSpace: 'nowrap' }}
    >
      {formatAmountMinor(amountMinor, currency, { signDisplay: 'exceptZero' })}
    </Text>
  );
}

/** In the zone the statement's days are cut in (the customer's, from their profile). */
function EntryTime({ entry, timeZone }: { entry: StatementEntry; timeZone: string }) {
  return (
    <time dateTime={entry.createdAt} style={{ whiteSpace: 'nowrap' }}>
      {dateTimeFormat({ dateStyle: 'short', timeStyle: 'short', timeZone }).format(
        new Date(entry.createdAt),
      )}
    </time>
  );
}

function EntriesTable({ statement }: { statement: Statement }) {
  const { currency } = statement;
  return (
    <Table.ScrollContainer minWidth={640} type="native">
      <Table aria-label={entriesLabel} verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Date ({statement.timeZone})</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th>Description</Table.Th>
            <Table.Th ta="right">Amount</Table.Th>
            <Table.Th ta="right">Balance</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {statement.entries.map((entry) => (
            <Table.Tr key={entry.lineId}>
              <Table.Td fz="sm">
                <EntryTime entry={entry} timeZone={statement.timeZone} />
              </Table.Td>
              <Table.Td fz="sm">{entryKindLabel(entry.kind)}</Table.Td>
              <Table.Td fz="sm" style={{ overflowWrap: 'anywhere' }}>
                {entry.description}
              </Table.Td>
              <Table.Td ta="right">
                <SignedAmount amountMinor={entry.amountMinor} currency={currency} />
              </Table.Td>
              <Table.Td ta="right" fz="sm" style={{ whiteSpace: 'nowrap' }}>
                {formatAmountMinor(entry.balanceAfterMinor, currency)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** On a phone each entry is a card: what and how much, then when and the balance after. */
function EntryCards({ statement }: { statement: Statement }) {
  const { currency } = statement;
  return (
    <CardList label={entriesLabel}>
      {statement.entries.map((entry) => (
        <Paper component="li" withBorder p="sm" key={entry.lineId}>
          <Stack gap={4}>
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
                {entry.description}
              </Text>
              <SignedAmount amountMinor={entry.amountMinor} currency={currency} />
            </Group>
            <Group justify="space-between" wrap="nowrap">
              <Text size="sm" c="dimmed">
                {entryKindLabel(entry.kind)} ·{' '}
                <EntryTime entry={entry} timeZone={statement.timeZone} />
              </Text>
              <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                Balance {formatAmountMinor(entry.balanceAfterMinor, currency)}
              </Text>
            </Group>
          </Stack>
        </Paper>
      ))}
    </CardList>
  );
}

/** The period's opening balance, its entries and its closing balance, as the files have them. */
export function StatementPreview({ statement }: { statement: Statement }) {
  const { currency } = statement;
  const hiddenCount = statement.entryCount - statement.entries.length;
  return (
    <Stack gap="md">
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        Account holder: <strong>{statement.accountHolder}</strong>
      </Text>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
        <Figure
          label="Opening balance"
          amountMinor={statement.openingBalanceMinor}
          currency={currency}
        />
        <Figure label="Money in" amountMinor={statement.moneyInMinor} currency={currency} />
        <Figure label="Money out" amountMinor={statement.moneyOutMinor} currency={currency} />
        <Figure
          label="Closing balance"
          amountMinor={statement.closingBalanceMinor}
          currency={currency}
        />
      </SimpleGrid>
      {statement.entryCount === 0 ? (
        <Text c="dimmed">No transactions in this period</Text>
      ) : (
        <ByScreen
          phone={<EntryCards statement={statement} />}
          wide={<EntriesTable statement={statement} />}
        />
      )}
      {hiddenCount > 0 && (
        <Text size="sm" c="dimmed">
          Showing the first {statement.entries.length} of {statement.entryCount} entries. The CSV
          and PDF have all of them.
        </Text>
      )}
    </Stack>
  );
}
