import {
  type ExchangeResult,
  type Quote,
  quoteBodySchema,
  quoteValiditySeconds,
} from '@coffer/contracts/exchange';
import type { WalletList } from '@coffer/contracts/wallets';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { z } from 'zod/mini';
import { ChoiceSelect } from '../../../components/choice-select.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { LoadingState } from '../../../components/query-states.tsx';
import { SegmentedChoice } from '../../../components/segmented-choice.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { useContractForm } from '../../../lib/forms.ts';
import { intlLocale } from '../../../lib/i18n.ts';
import { amountTextForApi, formatAmountMinor } from '../../../lib/money.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import {
  acceptQuote,
  exchangeRatesQueryOptions,
  requestQuote,
  walletsQueryOptions,
} from '../api.ts';

/** Seconds left until `deadlineMs` on this device's clock, ticking each second. */
function useSecondsLeft(deadlineMs: number): number {
  const [nowMs, setNowMs] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNowMs(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return Math.max(0, Math.ceil((deadlineMs - nowMs) / 1000));
}

/** A markup in basis points as the page's language writes a percentage ("0.50%", "0,50 %"). */
function percentOfBasisPoints(basisPoints: number): string {
  return new Intl.NumberFormat(intlLocale(), {
    style: 'percent',
    minimumFractionDigits: 2,
  }).format(basisPoints / 10_000);
}

/** The quote's amount as typed in the page's language, sent as the plain decimal the API takes. */
const quoteFormSchema = z.extend(quoteBodySchema, {
  amount: z.pipe(z.pipe(z.string(), z.transform(amountTextForApi)), quoteBodySchema.shape.amount),
});

function QuoteCard({
  quote,
  deadlineMs,
  onRequote,
  onAccepted,
}: {
  quote: Quote;
  deadlineMs: number;
  onRequote: () => void;
  onAccepted: (result: ExchangeResult) => void;
}) {
  const { t } = useLingui();
  const headingId = useId();
  const secondsLeft = useSecondsLeft(deadlineMs);
  const queryClient = useQueryClient();
  const accept = useMutation({
    mutationFn: () => acceptQuote(quote.quoteId),
    onSuccess: async (result) => {
      onAccepted(result);
      await queryClient.invalidateQueries({ queryKey: ['wallet'] });
    },
  });
  const isExpired = secondsLeft === 0;
  const rows: [string, string][] = [
    [t`You pay`, formatAmountMinor(quote.sellMinor, quote.sellCurrency)],
    [t`You receive`, formatAmountMinor(quote.receiveMinor, quote.receiveCurrency)],
    [t`Mid rate`, `1 ${quote.sellCurrency} = ${quote.midRate} ${quote.receiveCurrency}`],
    [
      t`Our markup`,
      `${percentOfBasisPoints(quote.markupBp)} (${formatAmountMinor(quote.markupMinor, quote.receiveCurrency)})`,
    ],
    [t`Rate applied`, `1 ${quote.sellCurrency} = ${quote.appliedRate} ${quote.receiveCurrency}`],
    [
      t`Fee`,
      quote.feeMinor === 0n ? t`None` : formatAmountMinor(quote.feeMinor, quote.receiveCurrency),
    ],
  ];
  const rateAt = formatDateTime(quote.rateAt);
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Title order={2} id={headingId} mb="md">
        <Trans>Your quote</Trans>
      </Title>
      <Table>
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th>{label}</Table.Th>
              <Table.Td>
                <bdi>{value}</bdi>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="xs" c="dimmed" mt="xs">
        <Trans>Rate of {rateAt}.</Trans>
      </Text>
      <Stack gap="sm" mt="md" align="flex-start">
        {isExpired ? (
          <Alert color="yellow" title={t`This quote has expired`}>
            <Trans>Rates move: ask for a new quote to exchange.</Trans>
          </Alert>
        ) : (
          <Text role="timer" aria-live="off" data-testid="quote-countdown">
            <Trans>This quote is valid for {secondsLeft} s.</Trans>
          </Text>
        )}
        <FormAlert message={accept.error ? errorMessage(accept.error) : null} />
        <Group>
          {!isExpired && (
            <Button onClick={() => accept.mutate()} loading={accept.isPending}>
              <Trans>Accept and exchange</Trans>
            </Button>
          )}
          <Button variant="light" onClick={onRequote}>
            <Trans>Get a new quote</Trans>
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

function QuoteForm({ wallets, onQuote }: { wallets: WalletList; onQuote: (quote: Quote) => void }) {
  const { t } = useLingui();
  const currencies = wallets.items.map((wallet) => wallet.currency);
  const choices = currencies.map((code) => ({ value: code, label: code }));
  const mutation = useMutation({ mutationFn: requestQuote });
  const { form, formError, onSubmit, isPending } = useContractForm({
    schema: quoteFormSchema,
    initialValues: {
      sellCurrency: wallets.mainCurrency,
      receiveCurrency: currencies.find((code) => code !== wallets.mainCurrency) ?? '',
      side: 'sell',
      amount: '',
    },
    mutation,
    onSuccess: (quote) => onQuote(quote),
    fieldsByCode: { amount_too_small: 'amount', same_currency: 'receiveCurrency' },
    otherFailureMessage: t`No quote could be given. Please try again.`,
  });
  const side = form.values.side;
  const amountCurrency = side === 'sell' ? form.values.sellCurrency : form.values.receiveCurrency;
  return (
    <form noValidate onSubmit={onSubmit}>
      <Stack gap="md" align="flex-start">
        <FormAlert message={formError} />
        <Group align="flex-end">
          <ChoiceSelect
            label={t`From wallet`}
            placeholder={t`Choose`}
            data={choices}
            w={160}
            {...form.getInputProps('sellCurrency')}
          />
          <ChoiceSelect
            label={t`To wallet`}
            placeholder={t`Choose`}
            data={choices}
            w={160}
            {...form.getInputProps('receiveCurrency')}
          />
        </Group>
        <SegmentedChoice
          label={t`The amount is`}
          data={[
            { value: 'sell', label: t`Amount to pay` },
            { value: 'receive', label: t`Amount to receive` },
          ]}
          value={form.values.side}
          onChange={(value) => form.setFieldValue('side', value)}
        />
        <TextInput
          label={t`Amount in ${amountCurrency}`}
          inputMode="decimal"
          w={240}
          {...form.getInputProps('amount')}
        />
        <Button type="submit" loading={isPending}>
          <Trans>Get a quote</Trans>
        </Button>
      </Stack>
    </form>
  );
}

function ExchangeDone({ result, onAgain }: { result: ExchangeResult; onAgain: () => void }) {
  const { t } = useLingui();
  const paid = formatAmountMinor(result.sellMinor, result.sellCurrency);
  const received = formatAmountMinor(result.receiveMinor, result.receiveCurrency);
  const rate = result.appliedRate;
  return (
    <Alert color="green" title={t`Exchanged`}>
      <Stack gap="xs">
        <Text>
          <Trans>
            You paid <bdi>{paid}</bdi> and received <bdi>{received}</bdi> at <bdi>{rate}</bdi>. It
            is on both wallets’ statements.
          </Trans>
        </Text>
        <Group>
          <Anchor component={Link} to="/wallets">
            <Trans>See your wallets</Trans>
          </Anchor>
          <Anchor component="button" type="button" onClick={onAgain}>
            <Trans>Exchange again</Trans>
          </Anchor>
        </Group>
      </Stack>
    </Alert>
  );
}

/** `/exchange`: a quote with the rate shown up front, valid 30 seconds, accepted once. */
export function ExchangePage() {
  const { t } = useLingui();
  usePageTitle(t`Exchange`);
  const wallets = useQuery(walletsQueryOptions);
  const rates = useQuery(exchangeRatesQueryOptions);
  const [quoted, setQuoted] = useState<{ quote: Quote; deadlineMs: number } | null>(null);
  const [done, setDone] = useState<ExchangeResult | null>(null);
  const hasTwoWallets = (wallets.data?.items.length ?? 0) >= 2;
  return (
    <Stack gap="lg" maw={760}>
      <Title order={1}>
        <Trans>Exchange</Trans>
      </Title>
      <Text c="dimmed">
        <Trans>
          Move money between your wallets. You see the rate, our markup and what you receive before
          you accept; a quote holds for {quoteValiditySeconds} seconds.
        </Trans>
      </Text>
      {rates.data && !rates.data.isHealthy && (
        <Alert color="red" title={t`Exchange is unavailable right now`}>
          <Trans>
            We have no current exchange rate, so we cannot give a quote. Please try again later.
          </Trans>
        </Alert>
      )}
      {wallets.isError && (
        <LoadFailed
          title={t`Your wallets did not load`}
          error={wallets.error}
          isRetrying={wallets.isFetching}
          onRetry={() => wallets.refetch()}
        />
      )}
      {wallets.isPending && <LoadingState label={t`Loading your wallets`} />}
      {wallets.data && !hasTwoWallets && (
        <Alert color="blue" title={t`You need a second wallet`}>
          <Trans>
            <Anchor component={Link} to="/wallets">
              Open a wallet in another currency
            </Anchor>{' '}
            to exchange into it.
          </Trans>
        </Alert>
      )}
      {done && (
        <ExchangeDone
          result={done}
          onAgain={() => {
            setDone(null);
            setQuoted(null);
          }}
        />
      )}
      {wallets.data && hasTwoWallets && !done && (
        <Card withBorder padding="lg">
          <QuoteForm
            wallets={wallets.data}
            onQuote={(quote) =>
              // The countdown runs on this device's clock from the answer's arrival.
              setQuoted({ quote, deadlineMs: Date.now() + quoteValiditySeconds * 1000 })
            }
          />
        </Card>
      )}
      {quoted && !done && (
        <QuoteCard
          key={quoted.quote.quoteId}
          quote={quoted.quote}
          deadlineMs={quoted.deadlineMs}
          onRequote={() => setQuoted(null)}
          onAccepted={setDone}
        />
      )}
    </Stack>
  );
}
