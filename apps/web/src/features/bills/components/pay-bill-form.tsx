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
import { useId, useState } from 'react';
import { z } from 'zod/mini';
import { AccountFrozenDialog } from '../../../components/account-frozen-dialog.tsx';
import { AllowanceNotice } from '../../../components/allowance-notice.tsx';
import { AmountInput } from '../../../components/amount-input.tsx';
import { BusyButton } from '../../../components/busy-button.tsx';
import { ChoiceSelect } from '../../../components/choice-select.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { contractResolver } from '../../../lib/forms.ts';
import { formatAmountMinor, positiveAmountSchemaFor } from '../../../lib/money.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { useMoneyAction } from '../../../lib/use-money-action.ts';
import { SavedPayeeSelect } from '../../payees/index.ts';
import { billPaymentsQueryRoot, payBill } from '../api.ts';
import { billCategoryLabels } from './bill-categories.ts';

type Values = { category: string | null; billerReference: string; amount: string };

const initialValues: Values = { category: null, billerReference: '', amount: '' };

/** The contract's schema, plus the amount check the server makes in the wallet's currency. */
function formSchemaFor(currency: CurrencyCode) {
  return z.extend(billPaymentBodySchema, {
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
  const currency = toCurrencyCode(me.currency);
  const [frozenMessage, setFrozenMessage] = useState<string | null>(null);
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues,
    validate: contractResolver(formSchemaFor(currency)),
  });
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
  // The form's schema gives the body: the amount typed the language's way as a plain decimal.
  const submit = (values: Values) => pay.submit(formSchemaFor(currency).parse(values));
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
          <AllowanceNotice kind="bill_payment" />
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
