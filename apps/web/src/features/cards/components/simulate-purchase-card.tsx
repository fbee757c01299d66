import { simulatePurchaseBodySchema } from '@coffer/contracts/cards';
import { toCurrencyCode } from '@coffer/contracts/currencies';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { FlaskConical } from 'lucide-react';
import { useId } from 'react';
import { z } from 'zod/mini';
import { AmountInput } from '../../../components/amount-input.tsx';
import { BusyButton } from '../../../components/busy-button.tsx';
import { contractResolver } from '../../../lib/forms.ts';
import {
  amountTextForApi,
  formatAmountMinor,
  positiveAmountSchemaFor,
} from '../../../lib/money.ts';
import { showErrorToast, showSuccessToast } from '../../../lib/toasts.ts';
import { useMoneyAction } from '../../../lib/use-money-action.ts';
import { simulatePurchase } from '../api.ts';
import { declineReasonLabels } from './card-badges.tsx';

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
  const { t, i18n } = useLingui();
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
    unexplainedFailure: t`The purchase could not be simulated. Please try again.`,
    showFailure: showErrorToast,
    onSent: async ({ authorization }) => {
      const amount = formatAmountMinor(authorization.amountMinor, authorization.currency);
      const merchant = authorization.merchant;
      if (authorization.declineReason) {
        const reason = i18n._(declineReasonLabels[authorization.declineReason]);
        showErrorToast(t`Purchase declined: ${reason} (${amount} at ${merchant}).`);
      } else {
        form.reset();
        showSuccessToast(t`Purchase approved: ${amount} at ${merchant}.`);
      }
      await queryClient.invalidateQueries({ queryKey: ['cards'] });
      await queryClient.invalidateQueries({ queryKey: ['wallet'] });
    },
  });
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Group gap="sm" mb="xs" wrap="wrap">
        <Title order={2} id={headingId}>
          <Trans>Simulate purchase</Trans>
        </Title>
        <Badge color="yellow" variant="light" leftSection={<FlaskConical size={12} aria-hidden />}>
          <Trans>Sandbox only</Trans>
        </Badge>
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        <Trans>
          Pretend to pay a merchant with your card. The purchase is authorized and settled as a real
          one would be, against your balance and weekly limit, with test money only.
        </Trans>
      </Text>
      <form
        noValidate
        onSubmit={form.onSubmit((values) =>
          purchase.submit({
            merchant: values.merchant.trim(),
            amount: amountTextForApi(values.amount),
          }),
        )}
      >
        <Stack gap="md" align="flex-start">
          <Group gap="md" align="flex-start" w="100%" wrap="wrap">
            <TextInput
              label={t`Merchant`}
              required
              w="100%"
              maw={320}
              {...form.getInputProps('merchant')}
            />
            <AmountInput
              label={t`Amount`}
              currency={currency}
              w="100%"
              maw={200}
              {...form.getInputProps('amount')}
            />
          </Group>
          <BusyButton isBusy={purchase.isPending} busyLabel={t`Paying...`}>
            <Trans>Simulate purchase</Trans>
          </BusyButton>
        </Stack>
      </form>
    </Card>
  );
}
