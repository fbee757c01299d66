import type { SupportInboxItem } from '@coffer/contracts/support-staff';
import { Anchor, Badge, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { QueuePage } from '../../../components/queue-page.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { supportInboxQueryOptions } from '../staff-api.ts';

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
    key: 'status',
    header: 'Status',
    cell: (row) =>
      row.awaitingStaffSince ? (
        <Badge color="yellow" variant="light">
          Waiting since {formatDateTime(row.awaitingStaffSince)}
        </Badge>
      ) : (
        <Badge color="gray" variant="light">
          Answered {formatDateTime(row.lastMessageAt)}
        </Badge>
      ),
  },
  {
    key: 'assignee',
    header: 'Assigned to',
    cell: (row) => row.assignee?.username ?? 'Nobody',
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

/**
 * Open threads: those waiting for a reply first, the longest waiting first, then answered
 * ones; a thread stays until it is marked resolved (issue #31 item 2: answered is not
 * resolved).
 */
export function SupportQueuePage() {
  return (
    <QueuePage
      title="Support inbox"
      description="Open threads, those waiting for an answer first. Open a thread to reply, pass it to a colleague or mark it resolved; it stays here until it is resolved."
      emptyDescription="Every thread is resolved."
      queue={useQuery(supportInboxQueryOptions)}
    >
      {(threads) => (
        <DataTable
          label="Open threads"
          columns={columns}
          rows={threads}
          rowKey={(row) => row.userId}
        />
      )}
    </QueuePage>
  );
}
