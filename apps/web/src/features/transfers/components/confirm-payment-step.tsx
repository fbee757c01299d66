import type { CurrencyCode } from '@coffer/contracts/currencies';
import { stepUpCodeSchema } from '@coffer/contracts/step-up';
import type { QuickPayBody, RecipientPreview } from '@coffer/contracts/transfers';
import { Trans, useLingui } from '@lingui/react/macro';
import { Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { AccountFrozenDialog } from '../../../components/account-frozen-dialog.tsx';
import { ConfirmAndSend } from '../../../components/confirm-and-send.tsx';
import type { ApiError } from '../../../lib/api-client.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { useMoneyAction } from '../../../lib/use-money-action.ts';
import { StepUpCodeField } from '../../step-up/index.ts';
import { sendQuickPay, transfersQueryRoot } from '../api.ts';

/** A payment the customer has filled in and is now asked to confirm. */
export type PaymentToConfirm = {
  body: QuickPayBody;
  preview: RecipientPreview;
  amountMinor: bigint;
  currency: CurrencyCode;
  /** The wallet it leaves from, named when the customer holds more than one. */
  fromWallet: string | null;
  /** At or above the operator's step-up threshold for the currency (from the allowances). */
  needsStepUp: boolean;
};

export type DetailsErrors = Partial<Record<'recipient' | 'amount' | 'note', string>>;

const detailsFields = ['recipient', 'amount', 'note'] as const;
/** Refusals about who the money goes to: shown beside the recipient field. */
const recipientErrorCodes = new Set(['recipient_refused', 'own_account']);

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
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [frozenMessage, setFrozenMessage] = useState<string | null>(null);
  const { needsStepUp } = payment;
  const amount = formatAmountMinor(payment.amountMinor, payment.currency);

  // The step replaces the form: keyboard and screen reader users start at its heading.
  useEffect(() => headingRef.current?.focus(), []);

  const send = useMoneyAction({
    send: sendQuickPay,
    ...(needsStepUp ? { stepUp: { when: 'always', codeSchema: stepUpCodeSchema } } : {}),
    onSent: (transfer) => {
      const sent = formatAmountMinor(transfer.amountMinor, transfer.currency);
      const name = transfer.recipientMaskedName;
      showSuccessToast(t`Sent ${sent} to ${name}.`);
      void queryClient.invalidateQueries({ queryKey: ['wallet'] });
      void queryClient.invalidateQueries({ queryKey: transfersQueryRoot });
      onSent();
    },
    // A refusal of the payment itself, from sending it or from asking for its code.
    onRefused: (error) => {
      if (error.code === 'account_frozen') {
        setFrozenMessage(error.message);
        return true;
      }
      const detailsErrors = detailsErrorsOf(error);
      if (detailsErrors) onBack(detailsErrors);
      return detailsErrors !== null;
    },
  });

  return (
    <>
      <ConfirmAndSend
        heading={
          <Title order={2} size="h4" ref={headingRef} tabIndex={-1}>
            <Trans>Confirm payment</Trans>
          </Title>
        }
        details={[
          payment.fromWallet !== null && { label: 'From', value: payment.fromWallet },
          {
            label: t({ message: 'To', context: 'recipient of a payment' }),
            value: (
              <>
                <Text fw={600} span>
                  {payment.preview.maskedName}
                </Text>
                <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {payment.body.recipient}
                </Text>
              </>
            ),
          },
          { label: t`Amount`, value: amount, isStrong: true },
          { label: t`Fee`, value: t`No fee` },
          Boolean(payment.body.note) && { label: t`Note`, value: payment.body.note },
          { label: t`Arrives`, value: t`Instantly` },
        ]}
        stepUpField={
          send.stepUp.isAsked && (
            <StepUpCodeField
              intended={{
                purpose: 'transfer',
                recipient: payment.body.recipient,
                amount: payment.body.amount,
                ...(payment.body.walletId ? { walletId: payment.body.walletId } : {}),
              }}
              onRefused={send.stepUp.refuse}
              value={send.stepUp.code}
              onChange={send.stepUp.setCode}
              error={send.stepUp.error}
              onPasskey={(answer) => send.submitWithPasskey(payment.body, answer)}
            />
          )
        }
        failure={send.failure}
        isPending={send.isPending}
        onConfirm={() => send.submit(payment.body)}
        backLabel={t`Back`}
        onBack={() => onBack({})}
        confirmLabel={t`Send ${amount}`}
        justify="space-between"
      />
      <AccountFrozenDialog message={frozenMessage} onClose={() => setFrozenMessage(null)} />
    </>
  );
}
