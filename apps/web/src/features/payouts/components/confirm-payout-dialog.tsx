import type { CurrencyCode } from '@coffer/contracts/currencies';
import type { PayoutBody } from '@coffer/contracts/payouts';
import { stepUpCodeSchema } from '@coffer/contracts/step-up';
import { Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { ConfirmAndSend } from '../../../components/confirm-and-send.tsx';
import { ModalOnDemand } from '../../../components/modal-on-demand.ts';
import type { ApiError } from '../../../lib/api-client.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { useMoneyAction } from '../../../lib/use-money-action.ts';
import { StepUpCodeField } from '../../step-up/index.ts';
import { payoutsQueryRoot, requestPayout } from '../api.ts';
import { PayoutDestinationDetails } from './payout-destination-details.tsx';

/** A withdrawal the customer filled in and checked, waiting for their confirmation. */
export type PayoutToConfirm = {
  body: PayoutBody;
  amountMinor: bigint;
  feeMinor: bigint;
  currency: CurrencyCode;
  /** The wallet it leaves from, named when the customer holds more than one. */
  fromWallet: string | null;
};

export const payoutPendingMessage = 'Withdrawal request pending approval.';

function ConfirmPayoutForm({
  payout,
  onCancel,
  onSent,
  onRefused,
}: {
  payout: PayoutToConfirm;
  onCancel: () => void;
  onSent: () => void;
  onRefused: (error: ApiError) => void;
}) {
  const queryClient = useQueryClient();
  const { amountMinor, feeMinor, currency, body } = payout;
  // The emailed code confirms this amount, from this wallet, to this destination.
  const { amount, walletId, stepUpCode: _typedCode, ...destination } = body;
  const send = useMoneyAction({
    send: requestPayout,
    stepUp: { when: 'always', codeSchema: stepUpCodeSchema },
    onSent: () => {
      showSuccessToast(payoutPendingMessage);
      void queryClient.invalidateQueries({ queryKey: payoutsQueryRoot });
      void queryClient.invalidateQueries({ queryKey: ['wallet'] });
      onSent();
    },
    onRefused: (error) => {
      if (error.code === 'email_not_verified') return false;
      onRefused(error);
      return true;
    },
    unexplainedFailure: 'Withdrawal processing failed',
  });

  return (
    <ConfirmAndSend
      details={[
        payout.fromWallet !== null && { label: 'From', value: payout.fromWallet },
        { label: 'Amount', value: formatAmountMinor(amountMinor, currency), isStrong: true },
        { label: 'Fee', value: feeMinor === 0n ? 'No fee' : formatAmountMinor(feeMinor, currency) },
        feeMinor > 0n && {
          label: 'Total',
          value: formatAmountMinor(amountMinor + feeMinor, currency),
          isStrong: true,
        },
        { label: 'To', value: <PayoutDestinationDetails destination={body} /> },
      ]}
      notice={
        <Text size="sm" c="dimmed">
          The amount is held at once and leaves your account when staff send it.
        </Text>
      }
      stepUpField={
        <StepUpCodeField
          intended={{ purpose: 'payout', amount, destination, ...(walletId ? { walletId } : {}) }}
          value={send.stepUp.code}
          onChange={send.stepUp.setCode}
          onRefused={onRefused}
          error={send.stepUp.error}
          onPasskey={(answer) => send.submitWithPasskey(body, answer)}
        />
      }
      failure={send.failure}
      isPending={send.isPending}
      onConfirm={() => send.submit(body)}
      backLabel="Cancel"
      onBack={onCancel}
      confirmLabel="Confirm"
      justify="flex-end"
    />
  );
}

/** Amount, fee and destination, and the step-up code every payout needs (PRODUCT.md). */
export function ConfirmPayoutDialog({
  payout,
  opened,
  onClose,
  onExited,
  onSent,
  onRefused,
}: {
  payout: PayoutToConfirm | null;
  opened: boolean;
  onClose: () => void;
  onExited: () => void;
  onSent: () => void;
  /** A refusal about the form's fields, the account or its level: shown outside the dialog. */
  onRefused: (error: ApiError) => void;
}) {
  return (
    <ModalOnDemand
      opened={opened}
      onClose={onClose}
      onExitTransitionEnd={onExited}
      title="Confirm withdrawal"
      centered
    >
      {payout && (
        <ConfirmPayoutForm
          key={JSON.stringify(payout.body)}
          payout={payout}
          onCancel={onClose}
          onSent={onSent}
          onRefused={onRefused}
        />
      )}
    </ModalOnDemand>
  );
}
