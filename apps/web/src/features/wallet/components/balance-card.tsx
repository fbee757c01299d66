import type { WalletSummary } from '@coffer/contracts/wallet';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Card, Group, Skeleton, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { ArrowLeftRight, Plus, Send } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { AccountNumber } from './account-number.tsx';
import classes from './balance-card.module.css';
import { BalanceFigure } from './balance-figure.tsx';

const loadQuickPayDialog = () => import('../../transfers/index.ts');

// The dialog's form (recipient lookup, step-up, confirmation) loads when it is first wanted:
// on the way to the button or at the latest on its click, not with the dashboard.
const QuickPayDialog = lazy(async () => ({
  default: (await loadQuickPayDialog()).QuickPayDialog,
}));

/** The account number's line (monospace digits beside a compact button), while it loads. */
const accountNumberHeightPx = 28;

/**
 * The balance, the account number and the three ways to move money from the dashboard.
 * The card has its final size before the wallet arrives (`undefined`): placeholders stand
 * in for the figures, and the buttons need no data.
 */
export function BalanceCard({ wallet }: { wallet: WalletSummary | undefined }) {
  const { t } = useLingui();
  const [isQuickPayOpen, quickPay] = useDisclosure(false);
  // Once opened, the dialog stays mounted, so it can play its closing transition.
  const [isQuickPayWanted, setIsQuickPayWanted] = useState(false);
  const openQuickPay = () => {
    setIsQuickPayWanted(true);
    quickPay.open();
  };
  return (
    <Card withBorder padding="lg">
      <Stack gap="md">
        <BalanceFigure wallet={wallet} />
        <Stack gap={2}>
          <Text size="sm" c="dimmed">
            <Trans>Account number</Trans>
          </Text>
          {wallet ? (
            <AccountNumber accountNumber={wallet.accountNumber} iban={wallet.iban} />
          ) : (
            <Skeleton
              h={accountNumberHeightPx}
              w={200}
              role="status"
              aria-label={t`Loading your account number`}
            />
          )}
        </Stack>
        <Group gap="sm" grow preventGrowOverflow={false} wrap="wrap">
          <Button
            component={Link}
            to="/dashboard/deposit"
            leftSection={<Plus size={18} aria-hidden />}
          >
            <Trans>Add Money</Trans>
          </Button>
          <Button
            variant="light"
            leftSection={<Send size={18} aria-hidden className={classes.sendIcon} />}
            onPointerEnter={() => void loadQuickPayDialog()}
            onFocus={() => void loadQuickPayDialog()}
            onClick={openQuickPay}
          >
            <Trans>Quick Pay</Trans>
          </Button>
          <Button
            component={Link}
            to="/transfer"
            variant="light"
            leftSection={<ArrowLeftRight size={18} aria-hidden />}
          >
            <Trans>Bank Transfer</Trans>
          </Button>
        </Group>
      </Stack>
      {isQuickPayWanted && (
        <Suspense fallback={null}>
          <QuickPayDialog opened={isQuickPayOpen} onClose={quickPay.close} />
        </Suspense>
      )}
    </Card>
  );
}
