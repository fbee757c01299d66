import { type CurrencyCode, toCurrencyCode } from '@coffer/contracts/currencies';
import type { Loan } from '@coffer/contracts/loans';
import { parseAmount, toDecimalString } from '@coffer/contracts/money';
import { stepUpCodeSchema } from '@coffer/contracts/step-up';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { AmountInput } from '../../../components/amount-input.tsx';
import { BusyButton } from '../../../components/busy-button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { ModalOnDemand } from '../../../components/modal-on-demand.ts';
import { amountTextForApi, formatAmountMinor, positiveAmountMinorOf } from '../../../lib/money.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { useMoneyAction } from '../../../lib/use-money-action.ts';
import { StepUpCodeField } from '../../step-up/index.ts';
import { loansQueryRoot, repayLoan } from '../api.ts';

/**
 * An amount as a person of `language` would type it into the field, which reads it their
 * way: German's decimal mark is a comma ("12.500" would be twelve thousand five hundred).
 */
function typedAmountOf(amountMinor: bigint, currency: CurrencyCode, language: string): string {
  const text = toDecimalString(amountMinor, currency);
  return language === 'de' ? text.replace('.', ',') : text;
}

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
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const currency = toCurrencyCode(loan.currency);
  const [amount, setAmount] = useState('');
  const money = (minor: bigint) => formatAmountMinor(minor, currency);
  const repay = useMoneyAction({
    send: (body: { amount: string }, key) => repayLoan(loan.id, body, key),
    stepUp: { when: 'when-asked', codeSchema: stepUpCodeSchema },
    onSent: async (repaid, body) => {
      // The body carries the API's plain decimal, whatever the page's language.
      const repaidAmount = money(parseAmount(body.amount, currency));
      showSuccessToast(
        repaid.status === 'repaid'
          ? t`Your loan is fully repaid.`
          : t`Repayment of ${repaidAmount} received.`,
      );
      // Closed once the loan is read again: reopened before that, "Pay off the loan" would
      // offer the payoff from before this repayment, and then refuse it as too much.
      await queryClient.invalidateQueries({ queryKey: loansQueryRoot });
      close();
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
  const payoff = money(loan.payoffMinor);
  const dueNow = money(loan.dueNowMinor);
  return (
    <ModalOnDemand opened={opened} onClose={close} title={t`Repay loan`} centered>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (amountMinor === null || isTooMuch) {
            repay.setFailure(isTooMuch ? t`You can repay at most ${payoff}.` : t`Invalid amount`);
            return;
          }
          repay.submit({ amount: amountTextForApi(amount) });
        }}
      >
        <Stack gap="md">
          <Text size="sm">
            <Trans>
              Payoff today: <b>{payoff}</b>
            </Trans>
            {loan.dueNowMinor > 0n && (
              <>
                {' · '}
                <Trans>
                  Due now: <b>{dueNow}</b>
                </Trans>
              </>
            )}
          </Text>
          <FormAlert message={repay.failure} />
          <AmountInput
            label={t`Amount`}
            data-autofocus
            value={amount}
            onChange={(event) => {
              setAmount(event.currentTarget.value);
              repay.stepUp.forget();
            }}
            error={isTooMuch ? t`At most ${payoff}` : undefined}
            currency={currency}
          />
          <Group gap="xs">
            {loan.dueNowMinor > 0n && (
              <Button
                variant="light"
                size="xs"
                onClick={() => setAmount(typedAmountOf(loan.dueNowMinor, currency, i18n.locale))}
              >
                <Trans>Pay what is due</Trans>
              </Button>
            )}
            <Button
              variant="light"
              size="xs"
              onClick={() => setAmount(typedAmountOf(loan.payoffMinor, currency, i18n.locale))}
            >
              <Trans>Pay off the loan</Trans>
            </Button>
          </Group>
          {repay.stepUp.isAsked && (
            <StepUpCodeField
              intended={{
                purpose: 'loan_repayment',
                loanId: loan.id,
                amount: amountTextForApi(amount),
              }}
              value={repay.stepUp.code}
              onChange={repay.stepUp.setCode}
              onRefused={repay.stepUp.refuse}
              error={repay.stepUp.error}
              onPasskey={(answer) =>
                repay.submitWithPasskey({ amount: amountTextForApi(amount) }, answer)
              }
            />
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              <Trans>Cancel</Trans>
            </Button>
            <BusyButton isBusy={repay.isPending} busyLabel={t`Repaying...`}>
              <Trans>Repay</Trans>
            </BusyButton>
          </Group>
        </Stack>
      </form>
    </ModalOnDemand>
  );
}
