import type { WalletSummary } from '@coffer/contracts/wallet';
import { Button, Card, Group, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { ArrowLeftRight, Plus, Send } from 'lucide-react';
import { Link } from 'react-router';
import { QuickPayDialog } from '../../transfers/components/quick-pay-dialog.tsx';
import { AccountNumber } from './account-number.tsx';
import { BalanceFigure } from './balance-figure.tsx';

/** The balance, the account number and the three ways to move money from the dashboard. */
export function BalanceCard({ wallet }: { wallet: WalletSummary }) {
  const [isQuickPayOpen, quickPay] = useDisclosure(false);
  return (
    <Card withBorder padding="lg">
      <Stack gap="md">
        <BalanceFigure wallet={wallet} />
        <Stack gap={2}>
          <Text size="sm" c="dimmed">
            Account number
          </Text>
          <AccountNumber accountNumber={wallet.accountNumber} />
        </Stack>
        <Group gap="sm" grow preventGrowOverflow={false} wrap="wrap">
          <Button
            component={Link}
            to="/dashboard/deposit"
            leftSection={<Plus size={18} aria-hidden />}
          >
            Add Money
          </Button>
          <Button
            variant="light"
            leftSection={<Send size={18} aria-hidden />}
            onClick={quickPay.open}
          >
            Quick Pay
          </Button>
          <Button
            component={Link}
            to="/transfer"
            variant="light"
            leftSection={<ArrowLeftRight size={18} aria-hidden />}
          >
            Bank Transfer
          </Button>
        </Group>
      </Stack>
      <QuickPayDialog opened={isQuickPayOpen} onClose={quickPay.close} />
    </Card>
  );
}
