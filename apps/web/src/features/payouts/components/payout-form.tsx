import { toCurrencyCode } from '@coffer/contracts/currencies';
import { errorCodes } from '@coffer/contracts/errors';
import { invalidPayoutAmountMessage } from '@coffer/contracts/money';
import {
  type CryptoCoin,
  cryptoCoinLabels,
  cryptoCoins,
  type PayoutMethod,
  type PayoutTerms,
  payoutBodySchema,
  payoutMethodLabels,
  payoutMethods,
} from '@coffer/contracts/payouts';
import {
  Button,
  Card,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { type UseFormReturnType, useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { AccountFrozenDialog } from '../../../components/account-frozen-dialog.tsx';
import { AllowanceNotice, useIsMoneyOutClosed } from '../../../components/allowance-notice.tsx';
import { AmountInput } from '../../../components/amount-input.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { LoadingState } from '../../../components/query-states.tsx';
import { useDialogTarget } from '../../../components/use-dialog-target.ts';
import { WalletChoice } from '../../../components/wallet-choice.tsx';
import type { ApiError } from '../../../lib/api-client.ts';
import { contractResolver } from '../../../lib/forms.ts';
import { formatAmountMinor, positiveAmountMinorOf } from '../../../lib/money.ts';
import {
  chosenWalletOf,
  payingWalletOf,
  useChoosableWallets,
  walletNameOf,
} from '../../../lib/wallets.ts';
import { SavedPayeeSelect } from '../../payees/index.ts';
import { payoutTermsQueryOptionsFor } from '../api.ts';
import { ConfirmPayoutDialog, type PayoutToConfirm } from './confirm-payout-dialog.tsx';
import { MyPayoutsCard } from './my-payouts-card.tsx';
import { UpgradeRequiredDialog } from './upgrade-required-dialog.tsx';

/** Every method's fields side by side: switching methods keeps what was typed. */
type PayoutValues = {
  method: PayoutMethod;
  holderName: string;
  bankName: string;
  accountNumber: string;
  email: string;
  emailOrCashtag: string;
  coin: CryptoCoin;
  address: string;
  amount: string;
};
type PayoutFormState = UseFormReturnType<PayoutValues>;

const initialValues: PayoutValues = {
  method: 'bank',
  holderName: '',
  bankName: '',
  accountNumber: '',
  email: '',
  emailOrCashtag: '',
  coin: 'BTC',
  address: '',
  amount: '',
};

const methodChoices = payoutMethods.map((method) => ({
  value: method,
  label: payoutMethodLabels[method],
}));
const coinChoices = cryptoCoins.map((coin) => ({ value: coin, label: cryptoCoinLabels[coin] }));

/** Refusals that are about how much: shown beside the amount. */
const amountErrorCodes = new Set(['insufficient_funds', 'daily_limit_exceeded']);

function HolderNameField({ form }: { form: PayoutFormState }) {
  return (
    <TextInput
      label="Account holder name"
      autoComplete="name"
      required
      maxLength={100}
      {...form.getInputProps('holderName')}
    />
  );
}

/** The fields of the chosen method (PRODUCT.md "Withdraw to an external account"). */
function DestinationFields({ form }: { form: PayoutFormState }) {
  switch (form.values.method) {
    case 'bank':
      return (
        <>
          <HolderNameField form={form} />
          <TextInput
            label="Bank name"
            required
            maxLength={100}
            {...form.getInputProps('bankName')}
          />
          <TextInput
            label="Account number or IBAN"
            autoComplete="off"
            spellCheck={false}
            required
            maxLength={50}
            {...form.getInputProps('accountNumber')}
          />
        </>
      );
    case 'paypal':
      return (
        <>
          <TextInput
            label="PayPal email"
            type="email"
            autoComplete="off"
            required
            maxLength={254}
            {...form.getInputProps('email')}
          />
          <HolderNameField form={form} />
        </>
      );
    case 'cashapp':
      return (
        <>
          <TextInput
            label="Email or $cashtag"
            autoComplete="off"
            spellCheck={false}
            required
            maxLength={254}
            {...form.getInputProps('emailOrCashtag')}
          />
          <HolderNameField form={form} />
        </>
      );
    case 'crypto':
      return (
        <>
          <Select
            label="Coin"
            data={coinChoices}
            allowDeselect={false}
            required
            {...form.getInputProps('coin')}
          />
          <TextInput
            label="Wallet address"
            description={
              form.values.coin === 'BTC'
                ? 'A Bitcoin address (1…, 3… or bc1…)'
                : 'An Ethereum address (0x…)'
            }
            autoComplete="off"
            spellCheck={false}
            required
            maxLength={100}
            {...form.getInputProps('address')}
          />
        </>
      );
  }
}

function AvailableBalance({ terms }: { terms: PayoutTerms }) {
  const labelId = useId();
  const fee =
    terms.feeMinor === 0n
      ? 'Withdrawals have no fee.'
      : `Each withdrawal has a fee of ${formatAmountMinor(terms.feeMinor, terms.currency)}.`;
  return (
    <Stack gap={2} component="section" aria-labelledby={labelId}>
      <Text size="sm" c="dimmed" id={labelId}>
        Available balance
      </Text>
      <Text fz={26} fw={700} style={{ overflowWrap: 'anywhere' }}>
        {formatAmountMinor(terms.availableMinor, terms.currency)}
      </Text>
      <Text size="sm" c="dimmed">
        {fee}
      </Text>
    </Stack>
  );
}

function PayoutDetailsForm({
  terms,
  walletId,
  fromWallet,
}: {
  terms: PayoutTerms;
  /** The wallet chosen to pay from; '' for the main wallet. */
  walletId: string;
  fromWallet: string | null;
}) {
  const currency = toCurrencyCode(terms.currency);
  const form = useForm<PayoutValues>({
    mode: 'controlled',
    initialValues,
    validate: contractResolver(payoutBodySchema),
  });
  const confirmation = useDialogTarget<PayoutToConfirm>();
  const [frozenMessage, setFrozenMessage] = useState<string | null>(null);
  const [upgradeMessage, setUpgradeMessage] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  // `?payee=<id>`: a link chose the destination (the closure page's "Withdraw to …").
  const linkedPayeeId = useSearchParams()[0].get('payee');

  // The fields first; the account's checks (frozen, level, limit) are the server's, in
  // PRODUCT.md's order, answered when the confirmation asks for a code (showRefusal).
  const requestPayout = () => {
    setFormError(null);
    if (form.validate().hasErrors) return;
    const body = payoutBodySchema.parse({ ...form.getValues(), ...chosenWalletOf(walletId) });
    const amountMinor = positiveAmountMinorOf(body.amount, currency);
    if (amountMinor === null) {
      form.setFieldError('amount', invalidPayoutAmountMessage);
      return;
    }
    if (amountMinor + terms.feeMinor > terms.availableMinor) {
      form.setFieldError('amount', errorCodes.insufficient_funds.message);
      return;
    }
    confirmation.open({
      body,
      amountMinor,
      feeMinor: terms.feeMinor,
      currency,
      fromWallet,
    });
  };

  const showRefusal = (error: ApiError) => {
    confirmation.dialogProps.onClose();
    if (error.code === 'account_frozen') {
      setFrozenMessage(error.message);
    } else if (error.code === 'level_too_low') {
      setUpgradeMessage(error.message);
    } else if (amountErrorCodes.has(error.code)) {
      form.setFieldError('amount', error.message);
    } else {
      const fieldErrors = Object.entries(error.fields).filter(([field]) => field in initialValues);
      for (const [field, message] of fieldErrors) form.setFieldError(field, message);
      if (fieldErrors.length === 0) setFormError(error.message);
    }
  };

  // The dialogs sit beside the form, not in it: React events bubble out of a portal along
  // the component tree, so a dialog's own submit would also submit this form.
  return (
    <>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          requestPayout();
        }}
      >
        <Stack gap="md">
          <FormAlert message={formError} />
          <SavedPayeeSelect
            kind="payout"
            initialPayeeId={linkedPayeeId}
            onPick={(target) => {
              form.clearErrors();
              // The saved destination's fields over empty ones: the amount stays as typed.
              const filled: PayoutValues = {
                ...initialValues,
                ...target.destination,
                amount: form.values.amount,
              };
              form.setValues(filled);
            }}
          />
          <Select
            label="Method"
            data={methodChoices}
            allowDeselect={false}
            required
            {...form.getInputProps('method')}
            onChange={(value) => {
              const method = payoutMethods.find((candidate) => candidate === value);
              if (!method) return;
              form.clearErrors();
              form.setFieldValue('method', method);
            }}
          />
          <DestinationFields form={form} />
          <AmountInput label="Amount" currency={currency} {...form.getInputProps('amount')} />
          <Group justify="flex-end">
            <Button type="submit">Withdraw</Button>
          </Group>
        </Stack>
      </form>
      <ConfirmPayoutDialog
        payout={confirmation.target}
        {...confirmation.dialogProps}
        onSent={() => {
          confirmation.dialogProps.onClose();
          form.reset();
        }}
        onRefused={showRefusal}
      />
      <AccountFrozenDialog message={frozenMessage} onClose={() => setFrozenMessage(null)} />
      <UpgradeRequiredDialog message={upgradeMessage} onClose={() => setUpgradeMessage(null)} />
    </>
  );
}

/**
 * The Transfer page's second tab: withdraw to a bank, PayPal, CashApp or a crypto address.
 * The amount is held at once and staff send it; "Your withdrawals" shows what became of it.
 */
export function PayoutForm() {
  const wallets = useChoosableWallets();
  // '' : the main wallet, as for a customer who holds only that one.
  const [walletId, setWalletId] = useState('');
  const payingWallet = payingWalletOf(wallets, walletId);
  const terms = useQuery(payoutTermsQueryOptionsFor(walletId === '' ? null : walletId));
  // A level or currency that allows no withdrawals: the notice says so and how to change it.
  const isClosed = useIsMoneyOutClosed('payout', walletId === '' ? null : walletId);
  const headingId = useId();
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
      <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
        <Stack gap="lg">
          <Stack gap={4}>
            <Title order={2} size="h3" id={headingId}>
              Withdraw money
            </Title>
            <Text c="dimmed" size="sm">
              To a bank account, PayPal, CashApp or a crypto wallet. The amount is held at once and
              leaves your wallet when staff send it.
            </Text>
          </Stack>
          {wallets && (
            <WalletChoice
              wallets={wallets}
              walletId={walletId}
              description="The amount is in this wallet's currency."
              onChange={setWalletId}
            />
          )}
          {terms.isPending ? (
            <LoadingState label="Loading your available balance" />
          ) : terms.isError ? (
            <LoadFailed
              title="Your balance did not load"
              error={terms.error}
              isRetrying={terms.isFetching}
              onRetry={() => terms.refetch()}
            />
          ) : (
            <>
              <AvailableBalance terms={terms.data} />
              <AllowanceNotice kind="payout" walletId={walletId === '' ? null : walletId} />
              {!isClosed && (
                <PayoutDetailsForm
                  terms={terms.data}
                  walletId={walletId}
                  fromWallet={payingWallet && wallets ? walletNameOf(payingWallet) : null}
                />
              )}
            </>
          )}
        </Stack>
      </Card>
      <MyPayoutsCard />
    </SimpleGrid>
  );
}
