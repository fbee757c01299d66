import type { Loan } from '@coffer/contracts/loans';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Card, Group, SimpleGrid, Stack, Switch, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { errorMessage } from '../../../lib/api-client.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { showErrorToast } from '../../../lib/toasts.ts';
import { loansQueryRoot, switchAutoRepay } from '../api.ts';
import { LoanFigure } from './loan-figure.tsx';
import { LoanScheduleTable } from './loan-schedule-table.tsx';
import { LoanStatusBadge } from './loan-status-badge.tsx';
import { useRateText } from './rate-text.ts';
import { RepayDialog } from './repay-dialog.tsx';

/** A disbursed loan: what is owed, the schedule, Repay and the automatic repayment switch. */
export function ActiveLoanCard({ loan }: { loan: Loan }) {
  const { t } = useLingui();
  const rateText = useRateText();
  const queryClient = useQueryClient();
  const headingId = useId();
  const [isRepayOpen, repayDialog] = useDisclosure(false);
  const money = (amountMinor: bigint) => formatAmountMinor(amountMinor, loan.currency);
  const borrowed = money(loan.amountMinor);
  const rate = rateText(loan.annualRateBp);
  const autoRepay = useMutation({
    mutationFn: (isOn: boolean) => switchAutoRepay(loan.id, isOn),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: loansQueryRoot }),
    onError: (error) => showErrorToast(errorMessage(error)),
  });
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Group gap="sm">
            <Title order={2} id={headingId}>
              <Trans>Your loan</Trans>
            </Title>
            <LoanStatusBadge status={loan.status} isOverdue={loan.isOverdue} />
          </Group>
          <Button onClick={repayDialog.open}>
            <Trans>Repay</Trans>
          </Button>
        </Group>
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
          <LoanFigure label={t`Borrowed`} value={t`${borrowed} at ${rate}`} />
          <LoanFigure label={t`Monthly instalment`} value={money(loan.instalmentMinor ?? 0n)} />
          <LoanFigure label={t`Due now`} value={money(loan.dueNowMinor)} isAlert={loan.isOverdue} />
          <LoanFigure label={t`Payoff amount today`} value={money(loan.payoffMinor)} />
        </SimpleGrid>
        {loan.isOverdue && (
          <Text c="red.8" size="sm">
            <Trans>
              An instalment is overdue. Add money to your wallet or repay now; no late fee is
              charged.
            </Trans>
          </Text>
        )}
        <Switch
          label={t`Automatic repayment on due dates`}
          description={t`We collect each instalment from your wallet on its due date; if the wallet is short we collect what is there and tell you.`}
          checked={loan.isAutoRepayOn}
          disabled={autoRepay.isPending}
          onChange={(event) => autoRepay.mutate(event.currentTarget.checked)}
        />
        <LoanScheduleTable loan={loan} />
      </Stack>
      <RepayDialog loan={loan} opened={isRepayOpen} onClose={repayDialog.close} />
    </Card>
  );
}
