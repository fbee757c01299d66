import type { WalletList } from '@coffer/contracts/wallets';
import { Anchor, Table, Text, VisuallyHidden } from '@mantine/core';
import { Link } from 'react-router';
import { formatAmountMinor } from '../../../lib/money.ts';

/** Every wallet: currency, account number, balance, and links to its statement and to exchange. */
export function WalletsTable({ wallets }: { wallets: WalletList }) {
  return (
    <Table.ScrollContainer minWidth={560} type="native">
      <Table verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Currency</Table.Th>
            <Table.Th>Account number</Table.Th>
            <Table.Th ta="right">Balance</Table.Th>
            <Table.Th ta="right">In {wallets.mainCurrency} (estimate)</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {wallets.items.map((wallet) => (
            <Table.Tr key={wallet.id}>
              <Table.Td>
                {wallet.currency}
                {wallet.isMain && (
                  <Text span size="xs" c="dimmed" ml={6}>
                    main
                  </Text>
                )}
              </Table.Td>
              <Table.Td ff="monospace">{wallet.accountNumber}</Table.Td>
              <Table.Td ta="right">
                {formatAmountMinor(wallet.balanceMinor, wallet.currency)}
              </Table.Td>
              <Table.Td ta="right" c="dimmed">
                {wallet.estimateInMainMinor === null
                  ? 'No rate'
                  : `≈ ${formatAmountMinor(wallet.estimateInMainMinor, wallets.mainCurrency)}`}
              </Table.Td>
              <Table.Td>
                <Anchor component={Link} to={`/statements?wallet=${wallet.id}`} size="sm">
                  Statement
                </Anchor>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The total of every wallet in the main currency at today's mid rates: an estimate. */
export function EstimatedTotal({ wallets }: { wallets: WalletList }) {
  return (
    <Text size="sm">
      Estimated total:{' '}
      <strong>
        {wallets.totalEstimateMinor === null
          ? 'not available (no current rate)'
          : `≈ ${formatAmountMinor(wallets.totalEstimateMinor, wallets.mainCurrency)}`}
      </strong>{' '}
      <Text span size="xs" c="dimmed">
        at today’s mid rates; an estimate, not an offer.
      </Text>
    </Text>
  );
}
