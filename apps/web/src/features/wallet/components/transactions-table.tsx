import type { WalletTransaction, WalletTransactionStatus } from '@coffer/contracts/wallet';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui as useLinguiContext } from '@lingui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Anchor,
  Badge,
  Box,
  Button,
  Group,
  Paper,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { Link } from 'react-router';
import { CardList } from '../../../components/card-list.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { useEntryKindLabel } from '../../../lib/entry-kinds.ts';
import { formatAmountMinor } from '../../../lib/money.ts';

const statusBadges: Record<WalletTransactionStatus, { label: MessageDescriptor; color: string }> = {
  completed: { label: msg`Completed`, color: 'green' },
  pending: { label: msg`Pending`, color: 'yellow' },
  rejected: { label: msg`Rejected`, color: 'red' },
};

/**
 * Never narrower than its word: a badge cuts its text to fit, and a long description would
 * otherwise squeeze the Status column until "Completed" read "COMPL…".
 */
function StatusBadge({ status }: { status: WalletTransactionStatus }) {
  const { i18n } = useLinguiContext();
  const badge = statusBadges[status];
  return (
    <Badge color={badge.color} variant="light" miw="max-content">
      {i18n._(badge.label)}
    </Badge>
  );
}

/**
 * Credits green with a plus, debits red with a minus: the sign says it without colour. A
 * rejected withdrawal never left the wallet, so its amount is struck through.
 */
function SignedAmount({ transaction }: { transaction: WalletTransaction }) {
  const { amountMinor } = transaction;
  const isRejected = transaction.status === 'rejected';
  const color = isRejected
    ? 'dimmed'
    : amountMinor > 0n
      ? 'var(--mantine-color-green-light-color)'
      : 'var(--mantine-color-red-light-color)';
  return (
    <Text
      span
      size="sm"
      fw={600}
      c={color}
      td={isRejected ? 'line-through' : undefined}
      style={{ whiteSpace: 'nowrap' }}
    >
      {formatAmountMinor(amountMinor, transaction.currency, { signDisplay: 'exceptZero' })}
    </Text>
  );
}

/**
 * A ledger line's way to report a problem with it (issue #31 item 9): a dispute prefilled
 * from the line, or, once one is filed, its reference, which the dispute page follows. A
 * payout not yet sent has no line to name; its status says what happens to it.
 */
function DisputeAction({ transaction }: { transaction: WalletTransaction }) {
  const { t } = useLingui();
  const entryKindLabel = useEntryKindLabel();
  if (!transaction.entryId) return null;
  const reference = transaction.disputeReference;
  if (reference) {
    return (
      <Anchor component={Link} to="/dispute" size="sm" style={{ whiteSpace: 'nowrap' }}>
        <Trans>
          Disputed{' '}
          <Text span ff="monospace" size="sm">
            {reference}
          </Text>
        </Trans>
      </Anchor>
    );
  }
  const kind = entryKindLabel(transaction.kind);
  const { description } = transaction;
  const amount = formatAmountMinor(transaction.amountMinor, transaction.currency, {
    signDisplay: 'exceptZero',
  });
  // Named in full for screen readers, which list every row's button; an aria-label, not
  // hidden text, so that the row's description is on the page once.
  return (
    <Button
      component={Link}
      to={`/dispute?entry=${encodeURIComponent(transaction.entryId)}`}
      variant="subtle"
      size="compact-sm"
      aria-label={t`Dispute ${kind} ${amount}: ${description}`}
    >
      <Trans>Dispute</Trans>
    </Button>
  );
}

function DateTime({ isoDate }: { isoDate: string }) {
  return (
    <time dateTime={isoDate} style={{ whiteSpace: 'nowrap' }}>
      {formatDateTime(isoDate)}
    </time>
  );
}

/** On a phone each transaction is a card: what and how much first, then when and status. */
function TransactionCards({
  label,
  transactions,
}: {
  label: string;
  transactions: readonly WalletTransaction[];
}) {
  const entryKindLabel = useEntryKindLabel();
  return (
    <CardList label={label} hiddenFrom="sm">
      {transactions.map((transaction) => (
        <Paper component="li" withBorder p="sm" key={transaction.id}>
          <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
            <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
              {transaction.description}
            </Text>
            <SignedAmount transaction={transaction} />
          </Group>
          <Group justify="space-between" align="center" wrap="wrap" gap="xs" mt={6}>
            <Text size="xs" c="dimmed">
              <DateTime isoDate={transaction.createdAt} /> · {entryKindLabel(transaction.kind)}
            </Text>
            <Group gap="xs" wrap="nowrap">
              <DisputeAction transaction={transaction} />
              <StatusBadge status={transaction.status} />
            </Group>
          </Group>
        </Paper>
      ))}
    </CardList>
  );
}

/**
 * Status, Date, Amount, Type, Description (PRODUCT.md "Dashboard"), newest first; cards on
 * a phone. Both are rendered and CSS shows the one that fits the screen: the server renders
 * the dashboard without knowing the screen, and the app hydrates what it sent.
 */
export function TransactionsTable({
  label,
  transactions,
}: {
  /** Names the table (or, on a phone, the list) for screen readers. */
  label: string;
  transactions: readonly WalletTransaction[];
}) {
  return (
    <>
      <TransactionCards label={label} transactions={transactions} />
      <Box visibleFrom="sm">
        <WideTransactionsTable label={label} transactions={transactions} />
      </Box>
    </>
  );
}

function WideTransactionsTable({
  label,
  transactions,
}: {
  label: string;
  transactions: readonly WalletTransaction[];
}) {
  const entryKindLabel = useEntryKindLabel();
  return (
    <Table.ScrollContainer minWidth={640} type="native">
      <Table aria-label={label} verticalSpacing="sm" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>
              <Trans>Status</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Date</Trans>
            </Table.Th>
            <Table.Th ta="end">
              <Trans>Amount</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Type</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Description</Trans>
            </Table.Th>
            <Table.Th>
              <VisuallyHidden>
                <Trans>Dispute</Trans>
              </VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {transactions.map((transaction) => (
            <Table.Tr key={transaction.id}>
              <Table.Td>
                <StatusBadge status={transaction.status} />
              </Table.Td>
              <Table.Td fz="sm">
                <DateTime isoDate={transaction.createdAt} />
              </Table.Td>
              <Table.Td ta="end">
                <SignedAmount transaction={transaction} />
              </Table.Td>
              {/* Whole: the Dispute column took the width that kept "Bill payment" on a line. */}
              <Table.Td fz="sm" style={{ whiteSpace: 'nowrap' }}>
                {entryKindLabel(transaction.kind)}
              </Table.Td>
              <Table.Td fz="sm" style={{ overflowWrap: 'anywhere' }}>
                {transaction.description}
              </Table.Td>
              <Table.Td ta="end">
                <DisputeAction transaction={transaction} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
