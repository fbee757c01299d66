import type { WalletSummary } from '@coffer/contracts/wallet';
import { Trans } from '@lingui/react/macro';
import { Card, Divider, Stack, Text, Title } from '@mantine/core';
import { useId } from 'react';
import { useInstitutionName, useSite } from '../../../lib/site.ts';
import { AccountNumber } from './account-number.tsx';
import { BalanceFigure } from './balance-figure.tsx';

/**
 * How to fund the wallet: the account number to quote and the operator's own deposit
 * instructions. Without configured instructions that part is left out, not invented.
 */
export function FundingDetailsCard({ wallet }: { wallet: WalletSummary }) {
  const headingId = useId();
  const instructionsId = useId();
  const depositInstructions = useSite()?.depositInstructions;
  const institutionName = useInstitutionName();
  const { currency } = wallet;
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Title order={2} id={headingId} mb="md">
        <Trans>Fund your wallet</Trans>
      </Title>
      <Stack gap="md">
        <Stack gap={2}>
          <Text size="sm" c="dimmed">
            <Trans>Your account number ({currency})</Trans>
          </Text>
          <AccountNumber accountNumber={wallet.accountNumber} iban={wallet.iban} />
        </Stack>
        {depositInstructions && (
          <Stack gap={4} component="section" aria-labelledby={instructionsId}>
            <Title order={3} size="h4" id={instructionsId}>
              <Trans>Deposit instructions</Trans>
            </Title>
            <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
              {depositInstructions}
            </Text>
          </Stack>
        )}
        <Text size="sm" c="dimmed">
          <Trans>
            When {institutionName} records a payment to your account, it shows up in your balance
            and below straight away.
          </Trans>
        </Text>
        <Divider />
        <BalanceFigure wallet={wallet} />
      </Stack>
    </Card>
  );
}
