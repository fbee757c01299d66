import { type Dispute, disputeProblemTypeLabels } from '@coffer/contracts/disputes';
import { Card, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { LoadingState, NothingFound } from '../../../components/query-states.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { myDisputesQueryOptions } from '../api.ts';
import { DisputeStatusBadge } from './dispute-status-badge.tsx';

const refundStatusWords = {
  pending_approval: 'waiting for approval',
  posted: 'paid to your account',
  rejected: 'not approved',
} as const;

const columns: readonly Column<Dispute>[] = [
  {
    key: 'reference',
    header: 'Reference',
    cell: (row) => <Text ff="monospace">{row.reference}</Text>,
  },
  { key: 'status', header: 'Status', cell: (row) => <DisputeStatusBadge status={row.status} /> },
  { key: 'filed', header: 'Filed', cell: (row) => formatDate(row.createdAt) },
  { key: 'type', header: 'Problem', cell: (row) => disputeProblemTypeLabels[row.problemType] },
  {
    key: 'amount',
    header: 'Amount',
    align: 'right',
    cell: (row) => formatAmountMinor(row.amountMinor, row.currency),
  },
  {
    key: 'resolution',
    header: 'Resolution',
    isEmpty: (row) => !row.resolutionNote && !row.refund,
    cell: (row) => (
      <Stack gap={2}>
        {row.resolutionNote ? (
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {row.resolutionNote}
          </Text>
        ) : null}
        {row.refund ? (
          <Text size="sm" c="dimmed">
            Refund {formatAmountMinor(row.refund.amountMinor, row.refund.currency)}:{' '}
            {refundStatusWords[row.refund.status]}
          </Text>
        ) : null}
      </Stack>
    ),
  },
];

/** The customer's disputes, newest first, with status and resolution. */
export function MyDisputesCard() {
  const headingId = useId();
  const disputes = useQuery(myDisputesQueryOptions);
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Title order={2} id={headingId} mb="md">
        Your disputes
      </Title>
      {disputes.isPending ? (
        <LoadingState label="Loading your disputes" />
      ) : disputes.isError ? (
        <LoadFailed
          title="Your disputes did not load"
          error={disputes.error}
          isRetrying={disputes.isFetching}
          onRetry={() => disputes.refetch()}
        />
      ) : disputes.data.items.length === 0 ? (
        <NothingFound title="No disputes" description="Disputes you file appear here." />
      ) : (
        <DataTable
          label="Your disputes"
          columns={columns}
          rows={disputes.data.items}
          rowKey={(row) => row.id}
        />
      )}
    </Card>
  );
}
