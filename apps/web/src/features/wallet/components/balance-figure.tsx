import type { WalletSummary } from '@coffer/contracts/wallet';
import { ActionIcon, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import { Eye, EyeOff } from 'lucide-react';
import { useId } from 'react';
import { formatAmountMinor } from '../../../lib/money.ts';
import { useBalanceVisibility } from './use-balance-visibility.ts';

const hiddenAmount = '••••••';

/**
 * The Available Balance, hidden as dots until the eye is pressed; held funds are shown
 * below it when there are any.
 */
export function BalanceFigure({ wallet }: { wallet: WalletSummary }) {
  const labelId = useId();
  const [isVisible, setIsVisible] = useBalanceVisibility();
  const heldMinor = BigInt(wallet.heldMinor);
  return (
    <Stack gap={4} component="section" aria-labelledby={labelId}>
      <Text size="sm" c="dimmed" id={labelId}>
        Available Balance
      </Text>
      <Group gap="xs" wrap="nowrap" align="center">
        <Text fz={32} fw={700} lh={1.2} style={{ overflowWrap: 'anywhere' }}>
          {isVisible ? (
            formatAmountMinor(wallet.availableMinor, wallet.currency)
          ) : (
            <>
              <span aria-hidden>{hiddenAmount}</span>
              <VisuallyHidden>Hidden</VisuallyHidden>
            </>
          )}
        </Text>
        <ActionIcon
          variant="subtle"
          color="gray"
          size="lg"
          aria-label={isVisible ? 'Hide balance' : 'Show balance'}
          aria-pressed={isVisible}
          onClick={() => setIsVisible(!isVisible)}
        >
          {isVisible ? <EyeOff size={20} aria-hidden /> : <Eye size={20} aria-hidden />}
        </ActionIcon>
      </Group>
      {isVisible && heldMinor > 0n && (
        <Text size="sm" c="dimmed">
          {formatAmountMinor(heldMinor, wallet.currency)} held for pending withdrawals
        </Text>
      )}
    </Stack>
  );
}
