import type { Me } from '@coffer/contracts/auth';
import {
  billCategories,
  billerReferenceLengthMax,
  billPaymentBodySchema,
} from '@coffer/contracts/bills';
import { type CurrencyCode, toCurrencyCode } from '@coffer/contracts/currencies';
import { Trans, useLingui } from '@lingui/react/macro';
import { Card, Group, Stack, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { z } from 'zod/mini';
import { AccountFrozenDialog } from '../../../components/account-frozen-dialog.tsx';
import { AllowanceNotice } from '../../../components/allowance-notice.tsx';
import { AmountInput } from '../../../components/amount-input.tsx';
import { BusyButton } from '../../../components/busy-button.tsx';
import { ChoiceSelect } from '../../../components/choice-select.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { WalletChoice } from '../../../components/wallet-choice.tsx';
import { contractResolver } from '../../../lib/forms.ts';
import { formatAmountMinor, positiveAmountSchemaFor } from '../../../lib/money.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { useMoneyAction } from '../../../lib/use-money-action.ts';
import { chosenWalletOf, payingWalletOf, useChoosableWallets } from '../../../lib/wallets.ts';
import { SavedPayeeSelect } from '../../payees/index.ts';
import { billPaymentsQueryRoot, payBill } from '../api.ts';
import { billCategoryLabels } from './bill-categories.ts';

/** `walletId` '': the main wallet, as for a customer who holds only that one. */
type Values = {
  category: string | null;
  billerReference: string;
  amount: string;
  walletId: string;
};

const initialValues: Values = { category: null, billerReference: '', amount: '', walletId: '' };

/** The contract's schema, plus the amount check the server makes in the wallet's currency. */
function formSchemaFor(currency: CurrencyCode) {
  return z.extend(z.omit(billPaymentBodySchema, { walletId: true }), {
    amount: positiveAmountSchemaFor(billPaymentBodySchema.shape.amount, currency, 'bill'),
  });
}

/**
 * Pay Bill: the wallet is debited at once. Each submission carries one Idempotency-Key,
 * reused when the same bill is sent again after a dropped connection, so it is paid once.
 */
export function PayBillForm({ me }: { me: Me }) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const headingId = useId();
  const [frozenMessage, setFrozenMessage] = useState<string | null>(null);
  const wallets = useChoosableWallets();
  // Read when the form validates: the amount's digits are the chosen wallet's currency's.
  const walletsRef = useRef(wallets);
  walletsRef.current = wallets;
  const currencyOf = (walletId: string) =>
    toCurrencyCode(payingWalletOf(walletsRef.current, walletId)?.currency ?? me.currency);
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues,
    validate: (values) => contractResolver(formSchemaFor(currencyOf(values.walletId)))(values),
  });
  const currency = currencyOf(form.values.walletId);
  const walletId = form.values.walletId === '' ? null : form.values.walletId;
  const pay = useMoneyAction({
    send: payBill,
    form,
    unexplainedFailure: t`Your bill could not be paid. Please try again.`,
    onRefused: (error) => {
      if (error.code !== 'account_frozen') return false;
      setFrozenMessage(error.message);
      return true;
    },
    onSent: async (paid) => {
      form.setValues(initialValues);
      form.resetDirty();
      const bill = i18n._(billCategoryLabels[paid.category]);
      const amount = formatAmountMinor(paid.amountMinor, paid.currency);
      showSuccessToast(t`${bill} bill paid: ${amount}`);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: billPaymentsQueryRoot }),
        queryClient.invalidateQueries({ queryKey: ['wallet'] }),
      ]);
    },
  });

  // The account's checks (frozen, level, limit) are the server's, in PRODUCT.md's order.
  // The form's schema gives the body: the amount typed the language's way as a plain decimal,
  // in the chosen wallet's currency.
  const submit = (values: Values) =>
    pay.submit({
      ...formSchemaFor(currencyOf(values.walletId)).parse(values),
      ...chosenWalletOf(values.walletId),
    });
  const categoryOptions = billCategories.map((category) => ({
    value: category,
    label: i18n._(billCategoryLabels[category]),
  }));

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Title order={2} id={headingId} mb="md">
        <Trans>Pay a bill</Trans>
      </Title>
      <form noValidate onSubmit={form.onSubmit(submit)}>
        <Stack gap="md" maw={480}>
          <FormAlert message={pay.failure} />
          {wallets && (
            <WalletChoice
              wallets={wallets}
              walletId={form.values.walletId}
              description={t`The amount is in this wallet's currency.`}
              onChange={(chosen) => {
                form.setFieldValue('walletId', chosen);
                form.clearFieldError('amount');
              }}
            />
          )}
          <AllowanceNotice kind="bill_payment" walletId={walletId} />
          <SavedPayeeSelect
            kind="bill"
            onPick={(target) => {
              form.setFieldValue('category', target.category);
              form.setFieldValue('billerReference', target.billerReference);
            }}
          />
          <ChoiceSelect
            label={t`Bill`}
            placeholder={t`Select a bill`}
            data={categoryOptions}
            required
            {...form.getInputProps('category')}
          />
          <TextInput
            label={t`Biller reference`}
            description={t`Your customer number, as printed on the bill`}
            required
            maxLength={billerReferenceLengthMax}
            autoComplete="off"
            {...form.getInputProps('billerReference')}
          />
          <AmountInput label={t`Amount`} currency={currency} {...form.getInputProps('amount')} />
          <Group>
            <BusyButton isBusy={pay.isPending} busyLabel={t`Paying...`}>
              <Trans>Pay Bill</Trans>
            </BusyButton>
          </Group>
        </Stack>
      </form>
      <AccountFrozenDialog message={frozenMessage} onClose={() => setFrozenMessage(null)} />
    </Card>
  );
}
