import {
  type ExchangeResult,
  type Quote,
  quoteBodySchema,
  quoteValiditySeconds,
} from '@coffer/contracts/exchange';
import type { WalletList } from '@coffer/contracts/wallets';
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
import { ChoiceSelect } from '../../../components/choice-select.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { LoadingState } from '../../../components/query-states.tsx';
import { SegmentedChoice } from '../../../components/segmented-choice.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { useContractForm } from '../../../lib/forms.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
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
    ['You pay', formatAmountMinor(quote.sellMinor, quote.sellCurrency)],
    ['You receive', formatAmountMinor(quote.receiveMinor, quote.receiveCurrency)],
    ['Mid rate', `1 ${quote.sellCurrency} = ${quote.midRate} ${quote.receiveCurrency}`],
    [
      'Our markup',
      `${(quote.markupBp / 100).toFixed(2)} % (${formatAmountMinor(quote.markupMinor, quote.receiveCurrency)})`,
    ],
    ['Rate applied', `1 ${quote.sellCurrency} = ${quote.appliedRate} ${quote.receiveCurrency}`],
    [
      'Fee',
      quote.feeMinor === 0n ? 'None' : formatAmountMinor(quote.feeMinor, quote.receiveCurrency),
    ],
  ];
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Title order={2} id={headingId} mb="md">
        Your quote
      </Title>
      <Table>
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th>{label}</Table.Th>
              <Table.Td>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="xs" c="dimmed" mt="xs">
        Rate of {new Date(quote.rateAt).toLocaleString()}.
      </Text>
      <Stack gap="sm" mt="md" align="flex-start">
        {isExpired ? (
          <Alert color="yellow" title="This quote has expired">
            Rates move: ask for a new quote to exchange.
          </Alert>
        ) : (
          <Text role="timer" aria-live="off" data-testid="quote-countdown">
            This quote is valid for {secondsLeft} s.
          </Text>
        )}
        <FormAlert message={accept.error ? errorMessage(accept.error) : null} />
        <Group>
          {!isExpired && (
            <Button onClick={() => accept.mutate()} loading={accept.isPending}>
              Accept and exchange
            </Button>
          )}
          <Button variant="light" onClick={onRequote}>
            Get a new quote
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

function QuoteForm({ wallets, onQuote }: { wallets: WalletList; onQuote: (quote: Quote) => void }) {
  const currencies = wallets.items.map((wallet) => wallet.currency);
  const choices = currencies.map((code) => ({ value: code, label: code }));
  const mutation = useMutation({ mutationFn: requestQuote });
  const { form, formError, onSubmit, isPending } = useContractForm({
    schema: quoteBodySchema,
    initialValues: {
      sellCurrency: wallets.mainCurrency,
      receiveCurrency: currencies.find((code) => code !== wallets.mainCurrency) ?? '',
      side: 'sell',
      amount: '',
    },
    mutation,
    onSuccess: (quote) => onQuote(quote),
    fieldsByCode: { amount_too_small: 'amount', same_currency: 'receiveCurrency' },
    otherFailureMessage: 'No quote could be given. Please try again.',
  });
  const side = form.values.side;
  return (
    <form noValidate onSubmit={onSubmit}>
      <Stack gap="md" align="flex-start">
        <FormAlert message={formError} />
        <Group align="flex-end">
          <ChoiceSelect
            label="From wallet"
            placeholder="Choose"
            data={choices}
            w={160}
            {...form.getInputProps('sellCurrency')}
          />
          <ChoiceSelect
            label="To wallet"
            placeholder="Choose"
            data={choices}
            w={160}
            {...form.getInputProps('receiveCurrency')}
          />
        </Group>
        <SegmentedChoice
          label="The amount is"
          data={[
            { value: 'sell', label: 'Amount to pay' },
            { value: 'receive', label: 'Amount to receive' },
          ]}
          value={form.values.side}
          onChange={(value) => form.setFieldValue('side', value)}
        />
        <TextInput
          label={`Amount in ${side === 'sell' ? form.values.sellCurrency : form.values.receiveCurrency}`}
          inputMode="decimal"
          w={240}
          {...form.getInputProps('amount')}
        />
        <Button type="submit" loading={isPending}>
          Get a quote
        </Button>
      </Stack>
    </form>
  );
}

function ExchangeDone({ result, onAgain }: { result: ExchangeResult; onAgain: () => void }) {
  return (
    <Alert color="green" title="Exchanged">
      <Stack gap="xs">
        <Text>
          You paid {formatAmountMinor(result.sellMinor, result.sellCurrency)} and received{' '}
          {formatAmountMinor(result.receiveMinor, result.receiveCurrency)} at {result.appliedRate}.
          It is on both wallets’ statements.
        </Text>
        <Group>
          <Anchor component={Link} to="/wallets">
            See your wallets
          </Anchor>
          <Anchor component="button" type="button" onClick={onAgain}>
            Exchange again
          </Anchor>
        </Group>
      </Stack>
    </Alert>
  );
}

/** `/exchange`: a quote with the rate shown up front, valid 30 seconds, accepted once. */
export function ExchangePage() {
  usePageTitle('Exchange');
  const wallets = useQuery(walletsQueryOptions);
  const rates = useQuery(exchangeRatesQueryOptions);
  const [quoted, setQuoted] = useState<{ quote: Quote; deadlineMs: number } | null>(null);
  const [done, setDone] = useState<ExchangeResult | null>(null);
  const hasTwoWallets = (wallets.data?.items.length ?? 0) >= 2;
  return (
    <Stack gap="lg" maw={760}>
      <Title order={1}>Exchange</Title>
      <Text c="dimmed">
        Move money between your wallets. You see the rate, our markup and what you receive before
        you accept; a quote holds for {quoteValiditySeconds} seconds.
      </Text>
      {rates.data && !rates.data.isHealthy && (
        <Alert color="red" title="Exchange is unavailable right now">
          We have no current exchange rate, so we cannot give a quote. Please try again later.
        </Alert>
      )}
      {wallets.isError && (
        <LoadFailed
          title="Your wallets did not load"
          error={wallets.error}
          isRetrying={wallets.isFetching}
          onRetry={() => wallets.refetch()}
        />
      )}
      {wallets.isPending && <LoadingState label="Loading your wallets" />}
      {wallets.data && !hasTwoWallets && (
        <Alert color="blue" title="You need a second wallet">
          <Anchor component={Link} to="/wallets">
            Open a wallet in another currency
          </Anchor>{' '}
          to exchange into it.
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
