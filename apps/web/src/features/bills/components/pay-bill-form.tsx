import type { Me } from '@coffer/contracts/auth';
import {
  type BillPaymentBody,
  billCategories,
  billCategoryLabels,
  billerReferenceLengthMax,
  billPaymentBodySchema,
} from '@coffer/contracts/bills';
import { type CurrencyCode, toCurrencyCode } from '@coffer/contracts/currencies';
import { Card, Group, Stack, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { z } from 'zod/mini';
import { AccountFrozenDialog } from '../../../components/account-frozen-dialog.tsx';
import { AllowanceNotice } from '../../../components/allowance-notice.tsx';
import { AmountInput } from '../../../components/amount-input.tsx';
import { BusyButton } from '../../../components/busy-button.tsx';
import { ChoiceSelect } from '../../../components/choice-select.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { contractResolver, showApiErrorOnForm } from '../../../lib/forms.ts';
import { newIdempotencyKey } from '../../../lib/idempotency.ts';
import { formatAmountMinor, positiveAmountSchemaFor } from '../../../lib/money.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { billPaymentsQueryRoot, payBill } from '../api.ts';

type Values = { category: string | null; billerReference: string; amount: string };

const initialValues: Values = { category: null, billerReference: '', amount: '' };

const categoryOptions = billCategories.map((category) => ({
  value: category,
  label: billCategoryLabels[category],
}));

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
  const queryClient = useQueryClient();
  const headingId = useId();
  const currency = toCurrencyCode(me.currency);
  const [formError, setFormError] = useState<string | null>(null);
  const [frozenMessage, setFrozenMessage] = useState<string | null>(null);
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues,
    validate: contractResolver(formSchemaFor(currency)),
  });
  // The key of the submission that has not been answered yet, with what it sent.
  const attempt = useRef<{ key: string; fingerprint: string } | null>(null);

  const pay = useMutation({
    mutationFn: (request: { body: BillPaymentBody; key: string }) =>
      payBill(request.body, request.key),
    onSuccess: async (paid) => {
      attempt.current = null;
      form.setValues(initialValues);
      form.resetDirty();
      showSuccessToast(
        `${billCategoryLabels[paid.category]} bill paid: ${formatAmountMinor(paid.amountMinor, paid.currency)}`,
      );
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: billPaymentsQueryRoot }),
        queryClient.invalidateQueries({ queryKey: ['wallet'] }),
      ]);
    },
    onError: (error) => {
      // The server stored its answer under the key: only a request that got no answer may
      // be sent again with it.
      if (!(error instanceof ApiError && error.isRetryable)) attempt.current = null;
      if (error instanceof ApiError && error.code === 'account_frozen') {
        setFrozenMessage(error.message);
        return;
      }
      setFormError(
        showApiErrorOnForm(form, error, {
          otherFailureMessage: 'Your bill could not be paid. Please try again.',
        }),
      );
    },
  });

  const submit = (values: Values) => {
    setFormError(null);
    // The account's checks (frozen, level, limit) are the server's, in PRODUCT.md's order.
    const body = billPaymentBodySchema.parse(values);
    const fingerprint = JSON.stringify(body);
    if (attempt.current?.fingerprint !== fingerprint) {
      attempt.current = { key: newIdempotencyKey(), fingerprint };
    }
    pay.mutate({ body, key: attempt.current.key });
  };

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Title order={2} id={headingId} mb="md">
        Pay a bill
      </Title>
      <form noValidate onSubmit={form.onSubmit(submit)}>
        <Stack gap="md" maw={480}>
          <FormAlert message={formError} />
          <AllowanceNotice kind="bill_payment" />
          <ChoiceSelect
            label="Bill"
            placeholder="Select a bill"
            data={categoryOptions}
            required
            {...form.getInputProps('category')}
          />
          <TextInput
            label="Biller reference"
            description="Your customer number, as printed on the bill"
            required
            maxLength={billerReferenceLengthMax}
            autoComplete="off"
            {...form.getInputProps('billerReference')}
          />
          <AmountInput label="Amount" currency={currency} {...form.getInputProps('amount')} />
          <Group>
            <BusyButton isBusy={pay.isPending} busyLabel="Paying...">
              Pay Bill
            </BusyButton>
          </Group>
        </Stack>
      </form>
      <AccountFrozenDialog message={frozenMessage} onClose={() => setFrozenMessage(null)} />
    </Card>
  );
}
