import type { CurrencyCode } from '@coffer/contracts/currencies';
import { stepUpCodeSchema } from '@coffer/contracts/step-up';
import type { QuickPayBody, RecipientPreview } from '@coffer/contracts/transfers';
import { Button, DataList, Group, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { AccountFrozenDialog } from '../../../components/account-frozen-dialog.tsx';
import { BusyButton } from '../../../components/busy-button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { newIdempotencyKey } from '../../../lib/idempotency.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { StepUpCodeField } from '../../step-up/index.ts';
import { sendQuickPay, transfersQueryRoot } from '../api.ts';

/** A payment the customer has filled in and is now asked to confirm. */
export type PaymentToConfirm = {
  body: QuickPayBody;
  preview: RecipientPreview;
  amountMinor: bigint;
  currency: CurrencyCode;
  /** At or above the operator's step-up threshold for the currency (from the allowances). */
  needsStepUp: boolean;
  /** Made when the confirmation opens: every retry of this one payment reuses it. */
  idempotencyKey: string;
};

export type DetailsErrors = Partial<Record<'recipient' | 'amount' | 'note', string>>;

const detailsFields = ['recipient', 'amount', 'note'] as const;
/** Refusals about who the money goes to: shown beside the recipient field. */
const recipientErrorCodes = new Set(['recipient_refused', 'own_account']);
const stepUpErrorCodes = new Set(['wrong_code', 'step_up_required', 'too_many_attempts']);

/** The server's complaints about the first step's fields, or null when there are none. */
function detailsErrorsOf(error: ApiError): DetailsErrors | null {
  if (recipientErrorCodes.has(error.code)) return { recipient: error.message };
  const errors: DetailsErrors = {};
  for (const field of detailsFields) {
    const message = error.fields[field];
    if (message) errors[field] = message;
  }
  return Object.keys(errors).length > 0 ? errors : null;
}

/**
 * Whether the payment may have gone through: no answer, a 5xx, or still running. Only
 * then is the same key sent again; any other refusal is stored under the key, so a new
 * attempt needs a new one.
 */
function mayHaveBeenApplied(error: unknown): boolean {
  return (
    !(error instanceof ApiError) || error.isRetryable || error.code === 'idempotency_in_progress'
  );
}

export function ConfirmPaymentStep({
  payment,
  onBack,
  onSent,
}: {
  payment: PaymentToConfirm;
  /** Back to the first step, with the server's complaints about its fields if any. */
  onBack: (errors: DetailsErrors) => void;
  onSent: () => void;
}) {
  const queryClient = useQueryClient();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const idempotencyKey = useRef(payment.idempotencyKey);
  const [stepUpCode, setStepUpCode] = useState('');
  const [stepUpError, setStepUpError] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | null>(null);
  const [frozenMessage, setFrozenMessage] = useState<string | null>(null);
  // Refused when the code was asked for: no code was sent, so none is asked for.
  const [isRefusedBeforeCode, setIsRefusedBeforeCode] = useState(false);
  const { needsStepUp } = payment;
  const amount = formatAmountMinor(payment.amountMinor, payment.currency);

  // The step replaces the form: keyboard and screen reader users start at its heading.
  useEffect(() => headingRef.current?.focus(), []);

  const send = useMutation({
    mutationFn: (code: string | null) =>
      sendQuickPay(
        { ...payment.body, ...(code === null ? {} : { stepUpCode: code }) },
        idempotencyKey.current,
      ),
    onSuccess: (transfer) => {
      showSuccessToast(
        `Sent ${formatAmountMinor(transfer.amountMinor, transfer.currency)} to ${transfer.recipientMaskedName}.`,
      );
      void queryClient.invalidateQueries({ queryKey: ['wallet'] });
      void queryClient.invalidateQueries({ queryKey: transfersQueryRoot });
      onSent();
    },
    onError: (error) => {
      if (!mayHaveBeenApplied(error)) idempotencyKey.current = newIdempotencyKey();
      if (!(error instanceof ApiError)) {
        setFormError(errorMessage(error));
        return;
      }
      if (needsStepUp && stepUpErrorCodes.has(error.code)) {
        setStepUpCode('');
        setStepUpError(error.message);
        return;
      }
      showRefusal(error);
    },
  });

  /** A refusal of the payment itself, from sending it or from asking for its code. */
  function showRefusal(error: ApiError) {
    if (error.code === 'account_frozen') {
      setFrozenMessage(error.message);
      return;
    }
    const detailsErrors = detailsErrorsOf(error);
    if (detailsErrors) onBack(detailsErrors);
    else setFormError(error.message);
  }

  const confirm = () => {
    if (send.isPending) return;
    setFormError(null);
    setStepUpError(undefined);
    if (!needsStepUp) {
      send.mutate(null);
      return;
    }
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
        <Title order={2} size="h4" ref={headingRef} tabIndex={-1}>
          Confirm payment
        </Title>
        <FormAlert message={formError} />
        <DataList labelWidth={96}>
          <DataList.Item>
            <DataList.ItemLabel>To</DataList.ItemLabel>
            <DataList.ItemValue>
              <Text fw={600} span>
                {payment.preview.maskedName}
              </Text>
              <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {payment.body.recipient}
              </Text>
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>Amount</DataList.ItemLabel>
            <DataList.ItemValue fw={600}>{amount}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>Fee</DataList.ItemLabel>
            <DataList.ItemValue>No fee</DataList.ItemValue>
          </DataList.Item>
          {payment.body.note && (
            <DataList.Item>
              <DataList.ItemLabel>Note</DataList.ItemLabel>
              <DataList.ItemValue style={{ overflowWrap: 'anywhere' }}>
                {payment.body.note}
              </DataList.ItemValue>
            </DataList.Item>
          )}
          <DataList.Item>
            <DataList.ItemLabel>Arrives</DataList.ItemLabel>
            <DataList.ItemValue>Instantly</DataList.ItemValue>
          </DataList.Item>
        </DataList>
        {needsStepUp && !isRefusedBeforeCode && (
          <StepUpCodeField
            intended={{
              purpose: 'transfer',
              recipient: payment.body.recipient,
              amount: payment.body.amount,
            }}
            onRefused={(error) => {
              setIsRefusedBeforeCode(true);
              showRefusal(error);
            }}
            value={stepUpCode}
            onChange={(code) => {
              setStepUpCode(code);
              setStepUpError(undefined);
            }}
            error={stepUpError}
          />
        )}
        <Group justify="space-between" gap="sm">
          <Button variant="default" onClick={() => onBack({})} disabled={send.isPending}>
            Back
          </Button>
          <BusyButton isBusy={send.isPending} busyLabel="Sending...">
            Send {amount}
          </BusyButton>
        </Group>
      </Stack>
      <AccountFrozenDialog message={frozenMessage} onClose={() => setFrozenMessage(null)} />
    </form>
  );
}
