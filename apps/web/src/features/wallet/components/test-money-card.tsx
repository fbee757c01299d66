import { toCurrencyCode } from '@coffer/contracts/currencies';
import { MoneyParseError } from '@coffer/contracts/money';
import {
  parseTestMoneyAmount,
  type TestMoneyTerms,
  testMoneyBodySchema,
} from '@coffer/contracts/wallet';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { FlaskConical } from 'lucide-react';
import { useId } from 'react';
import { z } from 'zod/mini';
import { AmountInput } from '../../../components/amount-input.tsx';
import { BusyButton } from '../../../components/busy-button.tsx';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { LoadingState } from '../../../components/query-states.tsx';
import { contractResolver } from '../../../lib/forms.ts';
import { amountTextForApi, formatAmountMinor } from '../../../lib/money.ts';
import { showErrorToast, showSuccessToast } from '../../../lib/toasts.ts';
import { useMoneyAction } from '../../../lib/use-money-action.ts';
import { addTestMoney, testMoneyTermsQueryOptions } from '../api.ts';

/**
 * The contract's schema plus the amount rules in the wallet's currency, with the operator's
 * per-request cap, as the server checks them (it alone checks the daily cap). The amount is
 * checked as the API will read it: typed the page's language's way, sent as a plain decimal.
 */
function formSchemaFor(terms: TestMoneyTerms) {
  const code = toCurrencyCode(terms.currency);
  return testMoneyBodySchema.check(
    z.superRefine((body, context) => {
      try {
        parseTestMoneyAmount(amountTextForApi(body.amount), code, terms.perRequestMinor);
      } catch (error) {
        if (!(error instanceof MoneyParseError)) throw error;
        context.addIssue({ code: 'custom', path: ['amount'], message: error.message });
      }
    }),
  );
}

/**
 * Sandbox only: credits the wallet from the sandbox funding account, so anyone trying
 * Coffer has money to move. One Idempotency-Key per submission: a retry after a dropped
 * connection reuses it and cannot credit twice.
 */
export function TestMoneyCard() {
  const { t } = useLingui();
  const terms = useQuery(testMoneyTermsQueryOptions);
  if (terms.isError) {
    return (
      <LoadFailed
        title={t`Add test money`}
        error={terms.error}
        isRetrying={terms.isFetching}
        onRetry={() => void terms.refetch()}
      />
    );
  }
  if (!terms.data) return <LoadingState label={t`Loading test money`} />;
  return <TestMoneyForm terms={terms.data} />;
}

function TestMoneyForm({ terms }: { terms: TestMoneyTerms }) {
  const { t } = useLingui();
  const { currency } = terms;
  const headingId = useId();
  const queryClient = useQueryClient();
  const form = useForm({
    mode: 'controlled',
    initialValues: { amount: '' },
    validate: contractResolver(formSchemaFor(terms)),
  });
  const add = useMoneyAction({
    send: addTestMoney,
    form,
    unexplainedFailure: t`Adding test money failed. Please try again.`,
    showFailure: showErrorToast,
    onSent: async (added) => {
      form.reset();
      const amount = formatAmountMinor(added.amountMinor, added.currency);
      showSuccessToast(t`Added ${amount} of test money to your wallet.`);
      await queryClient.invalidateQueries({ queryKey: ['wallet'] });
    },
  });
  const { perRequestMinor, dailyMinor, addedTodayMinor } = terms;
  const leftTodayMinor = dailyMinor > addedTodayMinor ? dailyMinor - addedTodayMinor : 0n;
  const perRequest = formatAmountMinor(perRequestMinor, currency);
  const daily = formatAmountMinor(dailyMinor, currency);
  const leftToday = formatAmountMinor(leftTodayMinor, currency);

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Group gap="sm" mb="xs" wrap="wrap">
        <Title order={2} id={headingId}>
          <Trans>Add test money</Trans>
        </Title>
        <Badge color="yellow" variant="light" leftSection={<FlaskConical size={12} aria-hidden />}>
          <Trans>Sandbox only</Trans>
        </Badge>
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        <Trans>
          This is a test installation. Test money comes from the sandbox funding account, is not
          real and exists only here. Up to <bdi>{perRequest}</bdi> at a time and <bdi>{daily}</bdi>{' '}
          a day: you can add <bdi>{leftToday}</bdi> more today.
        </Trans>
      </Text>
      <form
        noValidate
        onSubmit={form.onSubmit((values) =>
          add.submit({ amount: amountTextForApi(values.amount.trim()) }),
        )}
      >
        <Stack gap="md" align="flex-start">
          <AmountInput
            label={t`Amount`}
            currency={currency}
            w="100%"
            maw={320}
            {...form.getInputProps('amount')}
          />
          <BusyButton isBusy={add.isPending} busyLabel={t`Adding...`}>
            <Trans>Add test money</Trans>
          </BusyButton>
        </Stack>
      </form>
    </Card>
  );
}
