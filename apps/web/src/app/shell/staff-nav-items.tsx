import { useLingui } from '@lingui/react/macro';
import { Badge } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { queueCountsQueryOptions } from '../../features/staff-home/api.ts';
import { useMe } from '../../lib/session.ts';
import { NavItemLink } from './nav-item-link.tsx';
import { staffNavItems } from './nav-items.ts';

/** How many items wait in a queue, beside the queue's entry. */
function PendingCount({ count }: { count: number }) {
  const { t } = useLingui();
  if (count === 0) return null;
  return (
    <Badge size="sm" variant="filled" circle={count < 10} aria-label={t`${count} waiting`}>
      {count}
    </Badge>
  );
}

/** The open count of every queue, by its page's path: one request for all of them. */
function usePendingCounts(): Record<string, number> {
  const counts = useQuery(queueCountsQueryOptions);
  return Object.fromEntries(
    (counts.data?.items ?? []).map(({ queue, openCount }) => [`/admin/queues/${queue}`, openCount]),
  );
}

/**
 * The back office's entries of the side menu, with how much waits in each queue. A file of
 * its own, loaded only for staff: the queues' API code is no part of a customer's pages.
 */
export function StaffNavItems({ onNavigate }: { onNavigate: () => void }) {
  const pendingCounts = usePendingCounts();
  const isAdmin = useMe()?.role === 'admin';
  return (
    <>
      {staffNavItems
        .filter((item) => isAdmin || !item.isAdminOnly)
        .map((item) => (
          <NavItemLink
            key={item.to}
            item={item}
            onNavigate={onNavigate}
            rightSection={<PendingCount count={pendingCounts[item.to] ?? 0} />}
          />
        ))}
    </>
  );
}
