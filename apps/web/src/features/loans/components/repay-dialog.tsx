import { toCurrencyCode } from '@coffer/contracts/currencies';
import type { Loan } from '@coffer/contracts/loans';
import { toDecimalString } from '@coffer/contracts/money';
import { Button, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { AmountInput } from '../../../components/amount-input.tsx';
import { BusyButton } from '../../../components/busy-button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { ModalOnDemand } from '../../../components/modal-on-demand.ts';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { newIdempotencyKey } from '../../../lib/idempotency.ts';
import { formatAmountMinor, positiveAmountMinorOf } from '../../../lib/money.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
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
  const [stepUpCode, setStepUpCode] = useState('');
  const [isCodeAsked, setIsCodeAsked] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const attempt = useRef<{ key: string; amount: string } | null>(null);
  const money = (minor: bigint) => formatAmountMinor(minor, currency);
  const close = () => {
    setAmount('');
    setStepUpCode('');
    setIsCodeAsked(false);
    setFailure(null);
    onClose();
  };
  const repay = useMutation({
    mutationFn: (body: { amount: string; stepUpCode?: string }) => {
      if (attempt.current?.amount !== body.amount) {
        attempt.current = { key: newIdempotencyKey(), amount: body.amount };
      }
      return repayLoan(loan.id, body, attempt.current.key);
    },
    onSuccess: async (repaid) => {
      attempt.current = null;
      showSuccessToast(
        repaid.status === 'repaid'
          ? 'Your loan is fully repaid.'
          : `Repayment of ${money(positiveAmountMinorOf(amount, currency) ?? 0n)} received.`,
      );
      close();
      await queryClient.invalidateQueries({ queryKey: loansQueryRoot });
      await queryClient.invalidateQueries({ queryKey: ['wallet'] });
    },
    onError: (error) => {
      if (!(error instanceof ApiError && error.isRetryable)) attempt.current = null;
      if (error instanceof ApiError && error.code === 'step_up_required') {
        setIsCodeAsked(true);
        return;
      }
      setFailure(errorMessage(error));
    },
  });
  const amountMinor = positiveAmountMinorOf(amount, currency);
  const isTooMuch = amountMinor !== null && amountMinor > loan.payoffMinor;
  return (
    <ModalOnDemand opened={opened} onClose={close} title="Repay loan" centered>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setFailure(null);
          if (amountMinor === null || isTooMuch) {
            setFailure(
              isTooMuch ? `You can repay at most ${money(loan.payoffMinor)}.` : 'Invalid amount',
            );
            return;
          }
          repay.mutate({ amount: amount.trim(), ...(isCodeAsked ? { stepUpCode } : {}) });
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
          <FormAlert message={failure} />
          <AmountInput
            label="Amount"
            data-autofocus
            value={amount}
            onChange={(event) => {
              setAmount(event.currentTarget.value);
              setIsCodeAsked(false);
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
          {isCodeAsked && (
            <StepUpCodeField
              intended={{ purpose: 'loan_repayment', loanId: loan.id, amount: amount.trim() }}
              value={stepUpCode}
              onChange={setStepUpCode}
              onRefused={(error) => {
                setIsCodeAsked(false);
                setFailure(error.message);
              }}
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
