import type { WalletList } from '@coffer/contracts/wallets';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Table, Text, VisuallyHidden } from '@mantine/core';
import { Link } from 'react-router';
import { formatAmountMinor } from '../../../lib/money.ts';

/** Every wallet: currency, account number, balance, and links to its statement and to exchange. */
export function WalletsTable({ wallets }: { wallets: WalletList }) {
  const { t } = useLingui();
  const { mainCurrency } = wallets;
  return (
    <Table.ScrollContainer minWidth={560} type="native">
      <Table verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>
              <Trans>Currency</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Account number</Trans>
            </Table.Th>
            <Table.Th ta="end">
              <Trans>Balance</Trans>
            </Table.Th>
            <Table.Th ta="end">
              <Trans>In {mainCurrency} (estimate)</Trans>
            </Table.Th>
            <Table.Th>
              <VisuallyHidden>
                <Trans>Actions</Trans>
              </VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {wallets.items.map((wallet) => (
            <Table.Tr key={wallet.id}>
              <Table.Td>
                {wallet.currency}
                {wallet.isMain && (
                  <Text span size="xs" c="dimmed" ms={6}>
                    <Trans>main</Trans>
                  </Text>
                )}
              </Table.Td>
              <Table.Td ff="monospace">{wallet.accountNumber}</Table.Td>
              <Table.Td ta="end">
                {formatAmountMinor(wallet.balanceMinor, wallet.currency)}
              </Table.Td>
              <Table.Td ta="end" c="dimmed">
                {wallet.estimateInMainMinor === null
                  ? t`No rate`
                  : `≈ ${formatAmountMinor(wallet.estimateInMainMinor, mainCurrency)}`}
              </Table.Td>
              <Table.Td>
                <Anchor component={Link} to={`/statements?wallet=${wallet.id}`} size="sm">
                  <Trans>Statement</Trans>
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
  const { t } = useLingui();
  const total =
    wallets.totalEstimateMinor === null
      ? t`not available (no current rate)`
      : `≈ ${formatAmountMinor(wallets.totalEstimateMinor, wallets.mainCurrency)}`;
  return (
    <Text size="sm">
      <Trans>
        Estimated total: <strong>{total}</strong>{' '}
        <Text span size="xs" c="dimmed">
          at today’s mid rates; an estimate, not an offer.
        </Text>
      </Trans>
    </Text>
  );
}
