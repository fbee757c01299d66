import type { SupportInboxItem } from '@coffer/contracts/support';
import { Anchor, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { QueuePage } from '../../../components/queue-page.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { supportInboxQueryOptions } from '../api.ts';

const columns: readonly Column<SupportInboxItem>[] = [
  {
    key: 'customer',
    header: 'Customer',
    cell: (row) => (
      <Anchor component={Link} to={`/admin/users/${row.userId}?tab=messages`}>
        {row.username}
      </Anchor>
    ),
  },
  {
    key: 'waiting',
    header: 'Waiting since',
    cell: (row) => formatDateTime(row.awaitingStaffSince),
  },
  {
    key: 'message',
    header: 'Last message',
    cell: (row) => (
      <Text size="sm" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
        {row.lastMessagePreview}
      </Text>
    ),
  },
];

/** Threads waiting for a staff reply, the longest waiting first. */
export function SupportQueuePage() {
  return (
    <QueuePage
      title="Support inbox"
      description="Customers waiting for an answer, the longest waiting first. Open a thread to read it and reply; a thread leaves the inbox once staff have answered."
      emptyDescription="Every customer has an answer."
      queue={useQuery(supportInboxQueryOptions)}
    >
      {(threads) => (
        <DataTable
          label="Threads waiting for a reply"
          columns={columns}
          rows={threads}
          rowKey={(row) => row.userId}
        />
      )}
    </QueuePage>
  );
}
