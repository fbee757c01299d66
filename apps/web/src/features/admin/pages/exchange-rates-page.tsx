import type { PairMarkup } from '@coffer/contracts/fx-markups';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Badge, Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { LoadingState } from '../../../components/query-states.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { intlLocale } from '../../../lib/i18n.ts';
import { useMe } from '../../../lib/session.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { exchangeRatesQueryOptions } from '../api.ts';
import { MarkupDialog } from '../components/dialogs-on-demand.ts';
import type { MarkupTarget } from '../components/markup-dialog.tsx';

/**
 * `/admin/exchange-rates`: the mid rate of every pair with its time, each pair's markup with
 * where it comes from, and the source's health. A markup is the operator's configured one
 * (COFFER_FX_MARKUP, ADR 051) until an admin sets another here, audited.
 */
function RateSource({ source }: { source: string }) {
  return <Trans>Source: {source}</Trans>;
}

function RatesNote({ maxAgeHours }: { maxAgeHours: number }) {
  return (
    <Trans>
      Rates older than {maxAgeHours} hours are not used. A pair’s markup is the operator’s
      configured one (COFFER_FX_MARKUP) until an admin sets another here; it applies in both
      directions.
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

/** A table's header: its column names, numbers' columns aligned right. */
function HeaderRow({
  cells,
}: {
  cells: { column: string; label: ReactNode; isNumeric?: boolean }[];
}) {
  return (
    <Table.Thead>
      <Table.Tr>
        {cells.map((cell) => (
          <Table.Th key={cell.column} ta={cell.isNumeric ? 'right' : undefined}>
            {cell.label}
          </Table.Th>
        ))}
      </Table.Tr>
    </Table.Thead>
  );
}

/** Where a pair's markup comes from: the configuration, or a staff member on a day. */
function MarkupSource({ markup }: { markup: PairMarkup }) {
  if (markup.source === 'configured' || markup.setBy === null || markup.setAt === null) {
    return <Trans>Configured</Trans>;
  }
  const setBy = markup.setBy;
  const day = formatDate(markup.setAt);
  return (
    <Stack gap={2}>
      <Text size="sm">
        <Trans>
          Set by {setBy} on {day}
        </Trans>
      </Text>
      {markup.reason && (
        <Text size="xs" c="dimmed">
          {markup.reason}
        </Text>
      )}
    </Stack>
  );
}

/** Each pair's markup, with an edit button for admins (the routes are theirs). */
function MarkupsCard({ markups, markupBpMax }: { markups: PairMarkup[]; markupBpMax: number }) {
  const { t } = useLingui();
  const isAdmin = useMe()?.role === 'admin';
  const [target, setTarget] = useState<MarkupTarget | null>(null);
  const [isOpen, setIsOpen] = useState(false);
  return (
    <Card withBorder padding="lg" component="section" aria-label={t`Markups`}>
      <Title order={2} size="h3" mb="md">
        <Trans>Markups</Trans>
      </Title>
      <Table.ScrollContainer minWidth={560} type="native">
        <Table>
          <HeaderRow
            cells={[
              { column: 'pair', label: <Trans>Pair</Trans> },
              { column: 'markup', label: <Trans>Markup</Trans>, isNumeric: true },
              { column: 'setBy', label: <Trans>Set by</Trans> },
              ...(isAdmin ? [{ column: 'action', label: <Trans>Action</Trans> }] : []),
            ]}
          />
          <Table.Tbody>
            {markups.map((markup) => {
              const pair = markup.pair;
              return (
                <Table.Tr key={pair}>
                  <Table.Td>
                    <bdi>{pair}</bdi>
                  </Table.Td>
                  <Table.Td ta="right">{formatMarkup(markup.markupBp)}</Table.Td>
                  <Table.Td>
                    <MarkupSource markup={markup} />
                  </Table.Td>
                  {isAdmin && (
                    <Table.Td>
                      <Button
                        size="xs"
                        variant="default"
                        aria-label={t`Change the markup of ${pair}`}
                        onClick={() => {
                          setTarget({ markup, markupBpMax });
                          setIsOpen(true);
                        }}
                      >
                        <Trans>Edit</Trans>
                      </Button>
                    </Table.Td>
                  )}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <MarkupDialog target={target} opened={isOpen} onClose={() => setIsOpen(false)} />
    </Card>
  );
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
          <MarkupsCard markups={rates.data.markups} markupBpMax={rates.data.markupBpMaxForStaff} />
          <Card withBorder padding="lg">
            <Table.ScrollContainer minWidth={560} type="native">
              <Table>
                <HeaderRow
                  cells={[
                    { column: 'pair', label: <Trans>Pair</Trans> },
                    { column: 'mid', label: <Trans>Mid rate</Trans>, isNumeric: true },
                    { column: 'markup', label: <Trans>Markup</Trans>, isNumeric: true },
                    { column: 'time', label: <Trans>Rate time</Trans> },
                  ]}
                />
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
