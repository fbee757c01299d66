import { Alert, Badge, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { LoadingState } from '../../../components/query-states.tsx';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { exchangeRatesQueryOptions } from '../api.ts';

/**
 * `/admin/exchange-rates`: the mid rate of every pair with its time, the markups and the
 * source's health. Markups are the operator's configuration (COFFER_FX_MARKUP, ADR 051):
 * shown here read-only, changed by a deployment.
 */
export function ExchangeRatesPage() {
  usePageTitle('Exchange rates');
  const rates = useQuery(exchangeRatesQueryOptions);
  return (
    <Stack gap="lg" maw={960}>
      <Title order={1}>Exchange rates</Title>
      {rates.isError && (
        <LoadFailed
          title="The rates did not load"
          error={rates.error}
          isRetrying={rates.isFetching}
          onRetry={() => rates.refetch()}
        />
      )}
      {rates.isPending && <LoadingState label="Loading the rates" />}
      {rates.data && (
        <>
          <Card withBorder padding="lg">
            <Stack gap="xs">
              <Group gap="sm">
                <Text fw={600}>Source: {rates.data.source}</Text>
                <Badge color={rates.data.isHealthy ? 'green' : 'red'}>
                  {rates.data.isHealthy ? 'Healthy' : 'Unavailable'}
                </Badge>
              </Group>
              {rates.data.problem && (
                <Alert color="red" title="Exchange is unavailable to customers">
                  {rates.data.problem}
                </Alert>
              )}
              <Text size="sm" c="dimmed">
                Rates older than {Math.round(rates.data.maxAgeSeconds / 3600)} hours are not used.
                Markups come from the operator’s configuration (COFFER_FX_MARKUP) and are changed by
                redeploying it; they cannot be edited here.
              </Text>
            </Stack>
          </Card>
          <Card withBorder padding="lg">
            <Table.ScrollContainer minWidth={560} type="native">
              <Table>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Pair</Table.Th>
                    <Table.Th ta="right">Mid rate</Table.Th>
                    <Table.Th ta="right">Markup</Table.Th>
                    <Table.Th>Rate time</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rates.data.pairs.map((pair) => (
                    <Table.Tr key={`${pair.sellCurrency}/${pair.receiveCurrency}`}>
                      <Table.Td>
                        {pair.sellCurrency} → {pair.receiveCurrency}
                      </Table.Td>
                      <Table.Td ta="right">{pair.midRate ?? 'none'}</Table.Td>
                      <Table.Td ta="right">{(pair.markupBp / 100).toFixed(2)} %</Table.Td>
                      <Table.Td>
                        {pair.rateAt ? new Date(pair.rateAt).toLocaleString() : '—'}
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
