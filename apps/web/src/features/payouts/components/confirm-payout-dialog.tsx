import type { CurrencyCode } from '@coffer/contracts/currencies';
import type { PayoutBody } from '@coffer/contracts/payouts';
import { stepUpCodeSchema } from '@coffer/contracts/step-up';
import { Button, DataList, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { BusyButton } from '../../../components/busy-button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { ModalOnDemand } from '../../../components/modal-on-demand.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { newIdempotencyKey } from '../../../lib/idempotency.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { StepUpCodeField } from '../../step-up/index.ts';
import { payoutsQueryRoot, requestPayout } from '../api.ts';
import { PayoutDestinationDetails } from './payout-destination-details.tsx';

/** A withdrawal the customer filled in and checked, waiting for their confirmation. */
export type PayoutToConfirm = {
  body: PayoutBody;
  amountMinor: bigint;
  feeMinor: bigint;
  currency: CurrencyCode;
  /** Made when the confirmation opens: every retry of this one withdrawal reuses it. */
  idempotencyKey: string;
};

export const payoutPendingMessage = 'Withdrawal request pending approval.';
const stepUpErrorCodes = new Set(['wrong_code', 'step_up_required', 'too_many_attempts']);

/**
 * Whether the withdrawal may have gone through: no answer, a 5xx, or still running. Only
 * then is the same key sent again; any other refusal is stored under the key, so a new
 * attempt needs a new one.
 */
function mayHaveBeenApplied(error: unknown): boolean {
  return (
    !(error instanceof ApiError) || error.isRetryable || error.code === 'idempotency_in_progress'
  );
}

/** The product's words for a failure the server did not explain (PRODUCT.md section 4). */
function unexplainedFailure(error: unknown): string {
  return error instanceof ApiError && error.code === 'network_error'
    ? error.message
    : 'Withdrawal processing failed';
}

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
  const idempotencyKey = useRef(payout.idempotencyKey);
  const [stepUpCode, setStepUpCode] = useState('');
  const [stepUpError, setStepUpError] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | null>(null);
  const { amountMinor, feeMinor, currency, body } = payout;

  const send = useMutation({
    mutationFn: (code: string) =>
      requestPayout({ ...body, stepUpCode: code }, idempotencyKey.current),
    onSuccess: () => {
      showSuccessToast(payoutPendingMessage);
      void queryClient.invalidateQueries({ queryKey: payoutsQueryRoot });
      void queryClient.invalidateQueries({ queryKey: ['wallet'] });
      onSent();
    },
    onError: (error) => {
      if (!mayHaveBeenApplied(error)) idempotencyKey.current = newIdempotencyKey();
      if (!(error instanceof ApiError) || error.status === 0 || error.status >= 500) {
        setFormError(unexplainedFailure(error));
      } else if (stepUpErrorCodes.has(error.code)) {
        setStepUpCode('');
        setStepUpError(error.message);
      } else if (error.code === 'email_not_verified') {
        setFormError(error.message);
      } else {
        onRefused(error);
      }
    },
  });

  const confirm = () => {
    if (send.isPending) return;
    setFormError(null);
    setStepUpError(undefined);
    const code = stepUpCodeSchema.safeParse(stepUpCode);
    if (code.success) send.mutate(code.data);
    else setStepUpError(code.error.issues[0]?.message);
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        confirm();
      }}
    >
      <Stack gap="md">
        <FormAlert message={formError} />
        <DataList labelWidth={96}>
          <DataList.Item>
            <DataList.ItemLabel>Amount</DataList.ItemLabel>
            <DataList.ItemValue fw={600}>
              {formatAmountMinor(amountMinor, currency)}
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>Fee</DataList.ItemLabel>
            <DataList.ItemValue>
              {feeMinor === 0n ? 'No fee' : formatAmountMinor(feeMinor, currency)}
            </DataList.ItemValue>
          </DataList.Item>
          {feeMinor > 0n && (
            <DataList.Item>
              <DataList.ItemLabel>Total</DataList.ItemLabel>
              <DataList.ItemValue fw={600}>
                {formatAmountMinor(amountMinor + feeMinor, currency)}
              </DataList.ItemValue>
            </DataList.Item>
          )}
          <DataList.Item>
            <DataList.ItemLabel>To</DataList.ItemLabel>
            <DataList.ItemValue>
              <PayoutDestinationDetails destination={body} />
            </DataList.ItemValue>
          </DataList.Item>
        </DataList>
        <Text size="sm" c="dimmed">
          The amount is held at once and leaves your account when staff send it.
        </Text>
        <StepUpCodeField
          intended={{ purpose: 'payout', amount: body.amount }}
          value={stepUpCode}
          onChange={setStepUpCode}
          onRefused={onRefused}
          error={stepUpError}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={send.isPending}>
            Cancel
          </Button>
          <BusyButton isBusy={send.isPending} busyLabel="Sending...">
            Confirm
          </BusyButton>
        </Group>
      </Stack>
    </form>
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
          key={payout.idempotencyKey}
          payout={payout}
          onCancel={onClose}
          onSent={onSent}
          onRefused={onRefused}
        />
      )}
    </ModalOnDemand>
  );
}
