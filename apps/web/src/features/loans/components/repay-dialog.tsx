import { toCurrencyCode } from '@coffer/contracts/currencies';
import type { Loan } from '@coffer/contracts/loans';
import { toDecimalString } from '@coffer/contracts/money';
import { stepUpCodeSchema } from '@coffer/contracts/step-up';
import { Button, Group, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { AmountInput } from '../../../components/amount-input.tsx';
import { BusyButton } from '../../../components/busy-button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { ModalOnDemand } from '../../../components/modal-on-demand.ts';
import { formatAmountMinor, positiveAmountMinorOf } from '../../../lib/money.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { useMoneyAction } from '../../../lib/use-money-action.ts';
import { StepUpCodeField } from '../../step-up/index.ts';
import { loansQueryRoot, repayLoan } from '../api.ts';

/**
 * Repay from the wallet: any amount up to the payoff. Above the Quick Pay threshold the
 * server asks for a step-up code, and the field for it appears. One Idempotency-Key per
 * confirmed amount, so a retry after a dropped connection cannot pay twice.
 */
export function RepayDialog({
  loan,
  opened,
  onClose,
}: {
  loan: Loan;
  opened: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const currency = toCurrencyCode(loan.currency);
  const [amount, setAmount] = useState('');
  const money = (minor: bigint) => formatAmountMinor(minor, currency);
  const repay = useMoneyAction({
    send: (body: { amount: string }, key) => repayLoan(loan.id, body, key),
    stepUp: { when: 'when-asked', codeSchema: stepUpCodeSchema },
    onSent: async (repaid, body) => {
      showSuccessToast(
        repaid.status === 'repaid'
          ? 'Your loan is fully repaid.'
          : `Repayment of ${money(positiveAmountMinorOf(body.amount, currency) ?? 0n)} received.`,
      );
      close();
      await queryClient.invalidateQueries({ queryKey: loansQueryRoot });
      await queryClient.invalidateQueries({ queryKey: ['wallet'] });
    },
  });
  const close = () => {
    setAmount('');
    repay.reset();
    onClose();
  };
  const amountMinor = positiveAmountMinorOf(amount, currency);
  const isTooMuch = amountMinor !== null && amountMinor > loan.payoffMinor;
  return (
    <ModalOnDemand opened={opened} onClose={close} title="Repay loan" centered>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (amountMinor === null || isTooMuch) {
            repay.setFailure(
              isTooMuch ? `You can repay at most ${money(loan.payoffMinor)}.` : 'Invalid amount',
            );
            return;
          }
          repay.submit({ amount: amount.trim() });
        }}
      >
        <Stack gap="md">
          <Text size="sm">
            Payoff today: <b>{money(loan.payoffMinor)}</b>
            {loan.dueNowMinor > 0n && (
              <>
                {' '}
                · Due now: <b>{money(loan.dueNowMinor)}</b>
              </>
            )}
          </Text>
          <FormAlert message={repay.failure} />
          <AmountInput
            label="Amount"
            data-autofocus
            value={amount}
            onChange={(event) => {
              setAmount(event.currentTarget.value);
              repay.stepUp.forget();
            }}
            error={isTooMuch ? `At most ${money(loan.payoffMinor)}` : undefined}
            currency={currency}
          />
          <Group gap="xs">
            {loan.dueNowMinor > 0n && (
              <Button
                variant="light"
                size="xs"
                onClick={() => setAmount(toDecimalString(loan.dueNowMinor, currency))}
              >
                Pay what is due
              </Button>
            )}
            <Button
              variant="light"
              size="xs"
              onClick={() => setAmount(toDecimalString(loan.payoffMinor, currency))}
            >
              Pay off the loan
            </Button>
          </Group>
          {repay.stepUp.isAsked && (
            <StepUpCodeField
              intended={{ purpose: 'loan_repayment', loanId: loan.id, amount: amount.trim() }}
              value={repay.stepUp.code}
              onChange={repay.stepUp.setCode}
              onRefused={repay.stepUp.refuse}
              error={repay.stepUp.error}
              onPasskey={(answer) => repay.submitWithPasskey({ amount: amount.trim() }, answer)}
            />
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <BusyButton isBusy={repay.isPending} busyLabel="Repaying...">
              Repay
            </BusyButton>
          </Group>
        </Stack>
      </form>
    </ModalOnDemand>
  );
}
