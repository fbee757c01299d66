import type { Dispute } from '@coffer/contracts/disputes';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Card, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { LoadingState, NothingFound } from '../../../components/query-states.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { myDisputesQueryOptions } from '../api.ts';
import { disputeProblemTypeLabels } from '../labels.ts';
import { DisputeStatusBadge } from './dispute-status-badge.tsx';

type RefundStatus = NonNullable<Dispute['refund']>['status'];

const refundLines: Record<RefundStatus, (amount: string) => MessageDescriptor> = {
  pending_approval: (amount) => msg`Refund ${amount}: waiting for approval`,
  posted: (amount) => msg`Refund ${amount}: paid to your account`,
  rejected: (amount) => msg`Refund ${amount}: not approved`,
};

function ResolutionCell({ row }: { row: Dispute }) {
  const { i18n } = useLingui();
  return (
    <Stack gap={2}>
      {row.resolutionNote ? (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {row.resolutionNote}
        </Text>
      ) : null}
      {row.refund ? (
        <Text size="sm" c="dimmed">
          {i18n._(
            refundLines[row.refund.status](
              formatAmountMinor(row.refund.amountMinor, row.refund.currency),
            ),
          )}
        </Text>
      ) : null}
    </Stack>
  );
}

function useDisputeColumns(): Column<Dispute>[] {
  const { t, i18n } = useLingui();
  return [
    {
      key: 'reference',
      header: t`Reference`,
      cell: (row) => <Text ff="monospace">{row.reference}</Text>,
    },
    {
      key: 'status',
      header: t`Status`,
      cell: (row) => <DisputeStatusBadge status={row.status} />,
    },
    { key: 'filed', header: t`Filed`, cell: (row) => formatDate(row.createdAt) },
    {
      key: 'type',
      header: t`Problem`,
      cell: (row) => i18n._(disputeProblemTypeLabels[row.problemType]),
    },
    {
      key: 'amount',
      header: t`Amount`,
      align: 'right',
      cell: (row) => formatAmountMinor(row.amountMinor, row.currency),
    },
    {
      key: 'resolution',
      header: t`Resolution`,
      isEmpty: (row) => !row.resolutionNote && !row.refund,
      cell: (row) => <ResolutionCell row={row} />,
    },
  ];
}

/** The customer's disputes, newest first, with status and resolution. */
export function MyDisputesCard() {
  const { t } = useLingui();
  const headingId = useId();
  const columns = useDisputeColumns();
  const disputes = useQuery(myDisputesQueryOptions);
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Title order={2} id={headingId} mb="md">
        <Trans>Your disputes</Trans>
      </Title>
      {disputes.isPending ? (
        <LoadingState label={t`Loading your disputes`} />
      ) : disputes.isError ? (
        <LoadFailed
          title={t`Your disputes did not load`}
          error={disputes.error}
          isRetrying={disputes.isFetching}
          onRetry={() => disputes.refetch()}
        />
      ) : disputes.data.items.length === 0 ? (
        <NothingFound title={t`No disputes`} description={t`Disputes you file appear here.`} />
      ) : (
        <DataTable
          label={t`Your disputes`}
          columns={columns}
          rows={disputes.data.items}
          rowKey={(row) => row.id}
        />
      )}
    </Card>
  );
}
