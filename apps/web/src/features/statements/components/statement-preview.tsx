import type { Statement, StatementEntry } from '@coffer/contracts/statements';
import { Trans, useLingui } from '@lingui/react/macro';
import { Group, Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useId } from 'react';
import { ByScreen } from '../../../components/by-screen.tsx';
import { CardList } from '../../../components/card-list.tsx';
import { dateTimeFormat } from '../../../lib/dates.ts';
import { useEntryKindLabel } from '../../../lib/entry-kinds.ts';
import { formatAmountMinor } from '../../../lib/money.ts';

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
  const { t } = useLingui();
  const entryKindLabel = useEntryKindLabel();
  const { currency, timeZone } = statement;
  return (
    <Table.ScrollContainer minWidth={640} type="native">
      <Table aria-label={t`Statement entries`} verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>
              <Trans>Date ({timeZone})</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Type</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Description</Trans>
            </Table.Th>
            <Table.Th ta="end">
              <Trans>Amount</Trans>
            </Table.Th>
            <Table.Th ta="end">
              <Trans>Balance</Trans>
            </Table.Th>
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
              <Table.Td ta="end">
                <SignedAmount amountMinor={entry.amountMinor} currency={currency} />
              </Table.Td>
              <Table.Td ta="end" fz="sm" style={{ whiteSpace: 'nowrap' }}>
                {formatAmountMinor(entry.balanceAfterMinor, currency)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function BalanceAfter({ amountMinor, currency }: { amountMinor: bigint; currency: string }) {
  const balance = formatAmountMinor(amountMinor, currency);
  return <Trans>Balance {balance}</Trans>;
}

/** On a phone each entry is a card: what and how much, then when and the balance after. */
function EntryCards({ statement }: { statement: Statement }) {
  const { t } = useLingui();
  const entryKindLabel = useEntryKindLabel();
  const { currency } = statement;
  return (
    <CardList label={t`Statement entries`}>
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
                <BalanceAfter amountMinor={entry.balanceAfterMinor} currency={currency} />
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
  const { t } = useLingui();
  const { currency, accountHolder, entryCount } = statement;
  const hiddenCount = entryCount - statement.entries.length;
  const shownCount = statement.entries.length;
  return (
    <Stack gap="md">
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        <Trans>
          Account holder: <strong>{accountHolder}</strong>
        </Trans>
      </Text>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
        <Figure
          label={t`Opening balance`}
          amountMinor={statement.openingBalanceMinor}
          currency={currency}
        />
        <Figure label={t`Money in`} amountMinor={statement.moneyInMinor} currency={currency} />
        <Figure label={t`Money out`} amountMinor={statement.moneyOutMinor} currency={currency} />
        <Figure
          label={t`Closing balance`}
          amountMinor={statement.closingBalanceMinor}
          currency={currency}
        />
      </SimpleGrid>
      {statement.entryCount === 0 ? (
        <Text c="dimmed">
          <Trans>No transactions in this period</Trans>
        </Text>
      ) : (
        <ByScreen
          phone={<EntryCards statement={statement} />}
          wide={<EntriesTable statement={statement} />}
        />
      )}
      {hiddenCount > 0 && (
        <Text size="sm" c="dimmed">
          <Trans>
            Showing the first {shownCount} of {entryCount} entries. The CSV and PDF have all of
            them.
          </Trans>
        </Text>
      )}
    </Stack>
  );
}
