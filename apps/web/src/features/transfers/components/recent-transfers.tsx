import type { TransferListItem } from '@coffer/contracts/transfers';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Card,
  Center,
  EmptyState,
  Group,
  Loader,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { ArrowDownLeft, ArrowLeftRight, ArrowUpRight } from 'lucide-react';
import { useId } from 'react';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { LoadMore } from '../../../components/query-states.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { transfersQueryOptions } from '../api.ts';
import classes from './direction.module.css';

function TransferRow({ transfer }: { transfer: TransferListItem }) {
  const isSent = transfer.direction === 'sent';
  const { amountMinor, counterpartyMaskedName: name } = transfer;
  return (
    <Group
      component="li"
      justify="space-between"
      wrap="nowrap"
      gap="sm"
      py="sm"
      style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
    >
      <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
        <ThemeIcon variant="light" color={isSent ? 'red' : 'green'} radius="xl" aria-hidden>
          {isSent ? (
            <ArrowUpRight size={16} className={classes.mirroredInRtl} />
          ) : (
            <ArrowDownLeft size={16} className={classes.mirroredInRtl} />
          )}
        </ThemeIcon>
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Text fw={500}>
            {isSent ? (
              <Trans context="recipient of a payment">To {name}</Trans>
            ) : (
              <Trans context="sender of a payment">From {name}</Trans>
            )}
          </Text>
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {transfer.note ? `${transfer.note} · ` : ''}
            {formatDateTime(transfer.createdAt)}
          </Text>
        </Stack>
      </Group>
      <Text fw={600} c={isSent ? 'red.8' : 'green.8'} style={{ whiteSpace: 'nowrap' }}>
        {formatAmountMinor(isSent ? -amountMinor : amountMinor, transfer.currency, {
          signDisplay: 'always',
        })}
      </Text>
    </Group>
  );
}

/** The customer's latest Quick Pays both ways; live events keep it current. */
export function RecentTransfers() {
  const { t } = useLingui();
  const headingId = useId();
  const transfers = useInfiniteQuery(transfersQueryOptions);
  const items = transfers.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Title order={2} size="h4" id={headingId} mb="xs">
        <Trans>Recent transfers</Trans>
      </Title>
      {transfers.isPending && (
        <Center py="lg">
          <Loader aria-label={t`Loading your transfers`} />
        </Center>
      )}
      {transfers.isError && (
        <LoadFailed
          title={t`Your transfers did not load`}
          error={transfers.error}
          isRetrying={transfers.isFetching}
          onRetry={() => transfers.refetch()}
        />
      )}
      {transfers.isSuccess && items.length === 0 && (
        <EmptyState
          py="lg"
          size="sm"
          icon={<ArrowLeftRight size={28} aria-hidden />}
          title={t`No transfers yet`}
          description={t`Money you send to or receive from other Coffer customers appears here.`}
        />
      )}
      {items.length > 0 && (
        <Stack
          component="ul"
          gap={0}
          aria-labelledby={headingId}
          style={{ listStyle: 'none', margin: 0, padding: 0 }}
        >
          {items.map((transfer) => (
            <TransferRow key={transfer.entryId} transfer={transfer} />
          ))}
        </Stack>
      )}
      <LoadMore
        hasNextPage={transfers.hasNextPage}
        isFetchingNextPage={transfers.isFetchingNextPage}
        onLoadMore={() => transfers.fetchNextPage()}
      />
    </Card>
  );
}
