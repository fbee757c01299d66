import type { SupportInboxItem } from '@coffer/contracts/support-staff';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Badge, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { QueuePage } from '../../../components/queue-page.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { supportInboxQueryOptions } from '../staff-api.ts';

function useColumns(): readonly Column<SupportInboxItem>[] {
  const { t } = useLingui();
  return [
    {
      key: 'customer',
      header: t`Customer`,
      cell: (row) => (
        <Anchor component={Link} to={`/admin/users/${row.userId}?tab=messages`}>
          {row.username}
        </Anchor>
      ),
    },
    {
      key: 'status',
      header: t`Status`,
      cell: (row) =>
        row.awaitingStaffSince ? (
          <Badge color="yellow" variant="light">
            <WaitingSince isoDate={row.awaitingStaffSince} />
          </Badge>
        ) : (
          <Badge color="gray" variant="light">
            <AnsweredAt isoDate={row.lastMessageAt} />
          </Badge>
        ),
    },
    {
      key: 'assignee',
      header: t`Assigned to`,
      cell: (row) => row.assignee?.username ?? <Trans>Nobody</Trans>,
    },
    {
      key: 'message',
      header: t`Last message`,
      cell: (row) => (
        <Text size="sm" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
          {row.lastMessagePreview}
        </Text>
      ),
    },
  ];
}

function WaitingSince({ isoDate }: { isoDate: string }) {
  const since = formatDateTime(isoDate);
  return <Trans>Waiting since {since}</Trans>;
}

function AnsweredAt({ isoDate }: { isoDate: string }) {
  const answeredAt = formatDateTime(isoDate);
  return <Trans>Answered {answeredAt}</Trans>;
}

/**
 * Open threads: those waiting for a reply first, the longest waiting first, then answered
 * ones; a thread stays until it is marked resolved (issue #31 item 2: answered is not
 * resolved).
 */
export function SupportQueuePage() {
  const { t } = useLingui();
  const columns = useColumns();
  return (
    <QueuePage
      title={t`Support inbox`}
      description={t`Open threads, those waiting for an answer first. Open a thread to reply, pass it to a colleague or mark it resolved; it stays here until it is resolved.`}
      emptyDescription={t`Every thread is resolved.`}
      queue={useQuery(supportInboxQueryOptions)}
    >
      {(threads) => (
        <DataTable
          label={t`Open threads`}
          columns={columns}
          rows={threads}
          rowKey={(row) => row.userId}
        />
      )}
    </QueuePage>
  );
}
