import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Badge, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { LoadingState } from '../../../components/query-states.tsx';
import { intlLocale } from '../../../lib/i18n.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { exchangeRatesQueryOptions } from '../api.ts';

/**
 * `/admin/exchange-rates`: the mid rate of every pair with its time, the markups and the
 * source's health. Markups are the operator's configuration (COFFER_FX_MARKUP, ADR 051):
 * shown here read-only, changed by a deployment.
 */
function RateSource({ source }: { source: string }) {
  return <Trans>Source: {source}</Trans>;
}

function RatesNote({ maxAgeHours }: { maxAgeHours: number }) {
  return (
    <Trans>
      Rates older than {maxAgeHours} hours are not used. Markups come from the operator’s
      configuration (COFFER_FX_MARKUP) and are changed by redeploying it; they cannot be edited
      here.
    </Trans>
  );
}

/** A markup in basis points as a percentage the page's language writes: 0.50 %, ٠٫٥٠ ٪. */
function formatMarkup(markupBp: number): string {
  return new Intl.NumberFormat(intlLocale(), {
    style: 'percent',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(markupBp / 10_000);
}

export function ExchangeRatesPage() {
  const { t } = useLingui();
  usePageTitle(t`Exchange rates`);
  const rates = useQuery(exchangeRatesQueryOptions);
  return (
    <Stack gap="lg" maw={960}>
      <Title order={1}>
        <Trans>Exchange rates</Trans>
      </Title>
      {rates.isError && (
        <LoadFailed
          title={t`The rates did not load`}
          error={rates.error}
          isRetrying={rates.isFetching}
          onRetry={() => rates.refetch()}
        />
      )}
      {rates.isPending && <LoadingState label={t`Loading the rates`} />}
      {rates.data && (
        <>
          <Card withBorder padding="lg">
            <Stack gap="xs">
              <Group gap="sm">
                <Text fw={600}>
                  <RateSource source={rates.data.source} />
                </Text>
                <Badge color={rates.data.isHealthy ? 'green' : 'red'}>
                  {rates.data.isHealthy ? <Trans>Healthy</Trans> : <Trans>Unavailable</Trans>}
                </Badge>
              </Group>
              {rates.data.problem && (
                <Alert color="red" title={t`Exchange is unavailable to customers`}>
                  {rates.data.problem}
                </Alert>
              )}
              <Text size="sm" c="dimmed">
                <RatesNote maxAgeHours={Math.round(rates.data.maxAgeSeconds / 3600)} />
              </Text>
            </Stack>
          </Card>
          <Card withBorder padding="lg">
            <Table.ScrollContainer minWidth={560} type="native">
              <Table>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>
                      <Trans>Pair</Trans>
                    </Table.Th>
                    <Table.Th ta="right">
                      <Trans>Mid rate</Trans>
                    </Table.Th>
                    <Table.Th ta="right">
                      <Trans>Markup</Trans>
                    </Table.Th>
                    <Table.Th>
                      <Trans>Rate time</Trans>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rates.data.pairs.map((pair) => (
                    <Table.Tr key={`${pair.sellCurrency}/${pair.receiveCurrency}`}>
                      <Table.Td>
                        <bdi>
                          {pair.sellCurrency} → {pair.receiveCurrency}
                        </bdi>
                      </Table.Td>
                      <Table.Td ta="right">{pair.midRate ?? <Trans>none</Trans>}</Table.Td>
                      <Table.Td ta="right">{formatMarkup(pair.markupBp)}</Table.Td>
                      <Table.Td>
                        {pair.rateAt ? new Date(pair.rateAt).toLocaleString(intlLocale()) : '—'}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Card>
        </>
      )}
    </Stack>
  );
}
