import type { WalletSummary } from '@coffer/contracts/wallet';
import { Trans, useLingui } from '@lingui/react/macro';
import { ActionIcon, Group, Skeleton, Stack, Text, VisuallyHidden } from '@mantine/core';
import { Eye, EyeOff } from 'lucide-react';
import { useId } from 'react';
import { formatAmountMinor } from '../../../lib/money.ts';
import { useBalanceVisibility } from './use-balance-visibility.ts';

const hiddenAmount = '••••••';

/** The figure's size: a placeholder of the same height keeps the card still while it loads. */
const figureFontSizePx = 32;
const figureLineHeight = 1.2;
/** The eye button and the gap before it, beside the figure. */
const eyeWidthPx = 44;
/** A bold figure's width per character, in ems, with room to spare ("KWD 1,732.530"). */
const charWidthEm = 0.62;

/**
 * An amount never breaks across lines (issue #31 item 12): it scales down to the width
 * its section has (a container, so `cqi` is that width), never above the figure's size.
 */
function figureFontSize(text: string): string {
  return `min(${figureFontSizePx}px, calc((100cqi - ${eyeWidthPx}px) / ${(text.length * charWidthEm).toFixed(2)}))`;
}

/**
 * The Available Balance, hidden as dots until the eye is pressed; held funds are shown
 * below it when there are any. Without a wallet yet (`undefined`), a placeholder stands
 * where a shown amount will be.
 */
export function BalanceFigure({ wallet }: { wallet: WalletSummary | undefined }) {
  const { t } = useLingui();
  const labelId = useId();
  const [isVisible, setIsVisible] = useBalanceVisibility();
  const heldMinor = wallet?.heldMinor ?? 0n;
  const shown =
    isVisible && wallet ? formatAmountMinor(wallet.availableMinor, wallet.currency) : '';
  const held = wallet ? formatAmountMinor(heldMinor, wallet.currency) : '';
  return (
    <Stack
      gap={4}
      component="section"
      aria-labelledby={labelId}
      style={{ containerType: 'inline-size' }}
    >
      <Text size="sm" c="dimmed" id={labelId}>
        <Trans>Available Balance</Trans>
      </Text>
      <Group gap="xs" wrap="nowrap" align="center">
        <Text
          fz={shown ? figureFontSize(shown) : figureFontSizePx}
          fw={700}
          lh={figureLineHeight}
          style={{ whiteSpace: 'nowrap' }}
        >
          {isVisible && !wallet ? (
            <Skeleton
              component="span"
              display="inline-block"
              h={figureFontSizePx}
              w="6em"
              role="status"
              aria-label={t`Loading your balance`}
            />
          ) : shown ? (
            shown
          ) : (
            <>
              <span aria-hidden>{hiddenAmount}</span>
              <VisuallyHidden>
                <Trans>Hidden</Trans>
              </VisuallyHidden>
            </>
          )}
        </Text>
        <ActionIcon
          variant="subtle"
          color="gray"
          size="lg"
          aria-label={isVisible ? t`Hide balance` : t`Show balance`}
          aria-pressed={isVisible}
          onClick={() => setIsVisible(!isVisible)}
        >
          {isVisible ? <EyeOff size={20} aria-hidden /> : <Eye size={20} aria-hidden />}
        </ActionIcon>
      </Group>
      {isVisible && wallet && heldMinor > 0n && (
        <Text size="sm" c="dimmed">
          <Trans>
            <bdi>{held}</bdi> held for pending withdrawals
          </Trans>
        </Text>
      )}
    </Stack>
  );
}
