import type { Me } from '@coffer/contracts/auth';
import { type CurrencyCode, toCurrencyCode } from '@coffer/contracts/currencies';
import {
  type QuickPayBody,
  quickPayBodySchema,
  recipientSchema,
} from '@coffer/contracts/transfers';
import type { WalletListItem } from '@coffer/contracts/wallets';
import { Trans, useLingui } from '@lingui/react/macro';
import { Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { type UseFormReturnType, useForm } from '@mantine/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { UserCheck } from 'lucide-react';
import { useRef, useState } from 'react';
import { z } from 'zod/mini';
import { AllowanceNotice } from '../../../components/allowance-notice.tsx';
import { AmountInput } from '../../../components/amount-input.tsx';
import { BusyButton } from '../../../components/busy-button.tsx';
import { WalletChoice } from '../../../components/wallet-choice.tsx';
import { allowancesQueryOptionsFor } from '../../../lib/allowances.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { contractResolver } from '../../../lib/forms.ts';
import {
  amountTextForApi,
  formatAmountMinor,
  positiveAmountMinorOf,
  positiveAmountSchemaFor,
} from '../../../lib/money.ts';
import { useMe } from '../../../lib/session.ts';
import {
  chosenWalletOf,
  payingWalletOf,
  useChoosableWallets,
  walletNameOf,
} from '../../../lib/wallets.ts';
import { SavedPayeeSelect } from '../../payees/index.ts';
import { recipientPreviewQueryOptions } from '../api.ts';
import { ConfirmPaymentStep, type PaymentToConfirm } from './confirm-payment-step.tsx';

/** `walletId` '': the main wallet, as for a customer who holds only that one. */
export type QuickPayValues = { recipient: string; amount: string; note: string; walletId: string };
export type QuickPayFormState = UseFormReturnType<QuickPayValues>;

function formSchemaFor(currency: CurrencyCode) {
  return z.extend(z.omit(quickPayBodySchema, { stepUpCode: true, walletId: true }), {
    amount: positiveAmountSchemaFor(quickPayBodySchema.shape.amount, currency, 'quickPay'),
  });
}

/**
 * What the server is sent for these values (without the step-up code): the amount as typed
 * in the page's language becomes the plain decimal the API reads.
 */
function bodyOf(values: QuickPayValues): QuickPayBody {
  const note = values.note.trim();
  return {
    recipient: values.recipient.trim(),
    amount: amountTextForApi(values.amount.trim()),
    ...(note === '' ? {} : { note }),
    ...chosenWalletOf(values.walletId),
  };
}

/** The recipient to look up once it looks like an account number or an email, else null. */
function lookupable(recipient: string): string | null {
  const trimmed = recipient.trim();
  return recipientSchema.safeParse(trimmed).success ? trimmed : null;
}

/** The line under the recipient field: who the money goes to, once the server says. */
function RecipientPreviewLine({
  recipient,
  walletId,
}: {
  recipient: string;
  walletId: string | null;
}) {
  const preview = useQuery(recipientPreviewQueryOptions(recipient, walletId));
  const name = preview.data?.maskedName;
  const currency = preview.data?.currency;
  if (preview.isPending) {
    return (
      <Group gap={6} role="status">
        <Loader size={12} aria-hidden />
        <Text size="sm" c="dimmed">
          <Trans>Looking up the recipient...</Trans>
        </Text>
      </Group>
    );
  }
  if (preview.isError) {
    return (
      <Text size="sm" c="red.8" role="alert">
        {errorMessage(preview.error)}
      </Text>
    );
  }
  return (
    <Group gap={6} role="status" wrap="nowrap">
      <UserCheck size={16} aria-hidden color="var(--mantine-color-green-8)" />
      <Text size="sm" fw={500}>
        <Trans>
          Sending to {name} ({currency})
        </Trans>
      </Text>
    </Group>
  );
}

function RecipientDetailsStep({
  me,
  form,
  wallets,
  onContinue,
}: {
  me: Me;
  form: QuickPayFormState;
  wallets: readonly WalletListItem[] | null;
  onContinue: (payment: PaymentToConfirm) => void;
}) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const sendingWallet = payingWalletOf(wallets, form.values.walletId);
  const currency = toCurrencyCode(sendingWallet?.currency ?? me.currency);
  const walletId = form.values.walletId === '' ? null : form.values.walletId;
  // Back from the confirmation, the recipient is still there and so is its preview.
  const [checkedRecipient, setCheckedRecipient] = useState(() => lookupable(form.values.recipient));
  const [isChecking, setIsChecking] = useState(false);
  const allowances = useQuery(allowancesQueryOptionsFor(walletId));
  const stepUpThresholdMinor = allowances.data?.stepUpThresholdMinor ?? null;

  // The account's checks (frozen, level, limit) are the server's, in PRODUCT.md's order:
  // answered when the payment is sent, or before a code is asked for (ConfirmPaymentStep).
  const continueWith = async (values: QuickPayValues) => {
    const body = bodyOf(values);
    setCheckedRecipient(body.recipient);
    setIsChecking(true);
    try {
      const preview = await queryClient.fetchQuery(
        recipientPreviewQueryOptions(body.recipient, walletId),
      );
      // From the typed text: the body's is already the API's (read once, not twice).
      const amountMinor = positiveAmountMinorOf(values.amount.trim(), currency);
      if (amountMinor === null) return;
      onContinue({
        body,
        preview,
        amountMinor,
        currency,
        fromWallet: sendingWallet && wallets ? walletNameOf(sendingWallet) : null,
        needsStepUp: stepUpThresholdMinor !== null && amountMinor >= stepUpThresholdMinor,
      });
    } catch {
      // The preview line under the field shows the server's answer.
    } finally {
      setIsChecking(false);
    }
  };

  const threshold =
    stepUpThresholdMinor === null ? null : formatAmountMinor(stepUpThresholdMinor, currency);
  return (
    <form noValidate onSubmit={form.onSubmit((values) => void continueWith(values))}>
      <Stack gap="md">
        {wallets && (
          <WalletChoice
            wallets={wallets}
            walletId={form.values.walletId}
            description={t`The amount is in this wallet's currency; the recipient needs a wallet in it too.`}
            onChange={(chosen) => {
              form.setFieldValue('walletId', chosen);
              form.clearFieldError('amount');
            }}
          />
        )}
        <SavedPayeeSelect
          kind="coffer"
          onPick={(target) => {
            form.setFieldValue('recipient', target.recipient);
            setCheckedRecipient(lookupable(target.recipient));
          }}
        />
        <Stack gap={6}>
          <TextInput
            label={t`Recipient`}
            description={t`Their 10-digit account number or their email`}
            autoComplete="off"
            spellCheck={false}
            required
            maxLength={254}
            {...form.getInputProps('recipient')}
            onChange={(event) => {
              form.getInputProps('recipient').onChange(event);
              setCheckedRecipient(null);
            }}
            onBlur={() => {
              form.getInputProps('recipient').onBlur();
              setCheckedRecipient(lookupable(form.values.recipient));
            }}
          />
          {checkedRecipient !== null && !form.errors.recipient && (
            <RecipientPreviewLine recipient={checkedRecipient} walletId={walletId} />
          )}
        </Stack>
        <AllowanceNotice kind="transfer" walletId={walletId} />
        <AmountInput
          label={t`Amount`}
          description={
            threshold === null
              ? undefined
              : t`Payments of ${threshold} or more ask for a verification code.`
          }
          currency={currency}
          {...form.getInputProps('amount')}
        />
        <TextInput
          label={t`Note`}
          description={t`Optional. The recipient sees it.`}
          maxLength={140}
          {...form.getInputProps('note')}
        />
        <Group justify="flex-end">
          <BusyButton isBusy={isChecking} busyLabel={t`Checking...`}>
            <Trans>Continue</Trans>
          </BusyButton>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Quick Pay: who, how much and a note; then a confirmation with the recipient's masked
 * name and, at or above the step-up threshold, a verification code. The same form serves
 * the Transfer page and the dashboard's Quick Pay dialog; `onSent` lets a container close.
 */
export function QuickPayForm({ onSent }: { onSent?: () => void }) {
  const me = useMe();
  const [payment, setPayment] = useState<PaymentToConfirm | null>(null);
  const wallets = useChoosableWallets();
  // Read when the form validates: the amount's digits are the chosen wallet's currency's.
  const walletsRef = useRef(wallets);
  walletsRef.current = wallets;
  const mainCurrency = me?.currency ?? 'USD';
  const form = useForm<QuickPayValues>({
    mode: 'controlled',
    initialValues: { recipient: '', amount: '', note: '', walletId: '' },
    validate: (values) => {
      const sending = payingWalletOf(walletsRef.current, values.walletId);
      const currency = toCurrencyCode(sending?.currency ?? mainCurrency);
      return contractResolver(formSchemaFor(currency))(values);
    },
  });
  if (!me) return null;

  if (payment) {
    return (
      <ConfirmPaymentStep
        payment={payment}
        onBack={(fieldErrors) => {
          setPayment(null);
          form.setErrors(fieldErrors);
        }}
        onSent={() => {
          setPayment(null);
          form.reset();
          onSent?.();
        }}
      />
    );
  }
  return <RecipientDetailsStep me={me} form={form} wallets={wallets} onContinue={setPayment} />;
}
