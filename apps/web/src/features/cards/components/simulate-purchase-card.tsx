import { declineReasonLabels, simulatePurchaseBodySchema } from '@coffer/contracts/cards';
import { toCurrencyCode } from '@coffer/contracts/currencies';
import { Badge, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { FlaskConical } from 'lucide-react';
import { useId } from 'react';
import { z } from 'zod/mini';
import { AmountInput } from '../../../components/amount-input.tsx';
import { BusyButton } from '../../../components/busy-button.tsx';
import { contractResolver } from '../../../lib/forms.ts';
import { formatAmountMinor, positiveAmountSchemaFor } from '../../../lib/money.ts';
import { showErrorToast, showSuccessToast } from '../../../lib/toasts.ts';
import { useMoneyAction } from '../../../lib/use-money-action.ts';
import { simulatePurchase } from '../api.ts';

function formSchemaFor(currency: string) {
  return z.extend(simulatePurchaseBodySchema, {
    amount: positiveAmountSchemaFor(
      z.string().check(z.trim(), z.minLength(1, 'Invalid amount')),
      toCurrencyCode(currency),
      'cardPurchase',
    ),
  });
}

/**
 * Sandbox only: plays the card network. The server signs and sends a real authorization
 * (and its settlement) through the endpoints a processor calls, so the weekly limit, the
 * balance and a frozen card decide it exactly as they would a real purchase.
 */
export function SimulatePurchaseCard({ currency }: { currency: string }) {
  const headingId = useId();
  const queryClient = useQueryClient();
  const form = useForm({
    mode: 'controlled',
    initialValues: { merchant: '', amount: '' },
    validate: contractResolver(formSchemaFor(currency)),
  });
  const purchase = useMoneyAction({
    send: simulatePurchase,
    form,
    unexplainedFailure: 'The purchase could not be simulated. Please try again.',
    showFailure: showErrorToast,
    onSent: async ({ authorization }) => {
      const amount = formatAmountMinor(authorization.amountMinor, authorization.currency);
      if (authorization.declineReason) {
        showErrorToast(
          `Purchase declined: ${declineReasonLabels[authorization.declineReason]} (${amount} at ${authorization.merchant}).`,
        );
      } else {
        form.reset();
        showSuccessToast(`Purchase approved: ${amount} at ${authorization.merchant}.`);
      }
      await queryClient.invalidateQueries({ queryKey: ['cards'] });
      await queryClient.invalidateQueries({ queryKey: ['wallet'] });
    },
  });
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Group gap="sm" mb="xs" wrap="wrap">
        <Title order={2} id={headingId}>
          Simulate purchase
        </Title>
        <Badge color="yellow" variant="light" leftSection={<FlaskConical size={12} aria-hidden />}>
          Sandbox only
        </Badge>
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        Pretend to pay a merchant with your card. The purchase is authorized and settled as a real
        one would be, against your balance and weekly limit, with test money only.
      </Text>
      <form
        noValidate
        onSubmit={form.onSubmit((values) =>
          purchase.submit({ merchant: values.merchant.trim(), amount: values.amount.trim() }),
        )}
      >
        <Stack gap="md" align="flex-start">
          <Group gap="md" align="flex-start" w="100%" wrap="wrap">
            <TextInput
              label="Merchant"
              required
              w="100%"
              maw={320}
              {...form.getInputProps('merchant')}
            />
            <AmountInput
              label="Amount"
              currency={currency}
              w="100%"
              maw={200}
              {...form.getInputProps('amount')}
            />
          </Group>
          <BusyButton isBusy={purchase.isPending} busyLabel="Paying...">
            Simulate purchase
          </BusyButton>
        </Stack>
      </form>
    </Card>
  );
}
