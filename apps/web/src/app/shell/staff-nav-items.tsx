import { Badge } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { depositQueueQueryOptions } from '../../features/deposits/api.ts';
import { kycQueueQueryOptions } from '../../features/kyc/api.ts';
import { payoutQueueQueryOptions } from '../../features/payouts/api.ts';
import { NavItemLink } from './nav-item-link.tsx';
import { staffNavItems } from './nav-items.ts';

/** How many items wait in a queue, beside the queue's entry. */
function PendingCount({ count }: { count: number }) {
  if (count === 0) return null;
  return (
    <Badge size="sm" variant="filled" circle={count < 10} aria-label={`${count} waiting`}>
      {count}
    </Badge>
  );
}

/** Deposits and adjustments waiting for a second admin; payouts waiting to be sent. */
function usePendingCounts(): Record<string, number> {
  const deposits = useQuery(depositQueueQueryOptions);
  const payouts = useQuery(payoutQueueQueryOptions);
  const kyc = useQuery(kycQueueQueryOptions);
  return {
    '/admin/queues/deposits': deposits.data?.items.length ?? 0,
    '/admin/queues/payouts': payouts.data?.items.length ?? 0,
    '/admin/queues/kyc': kyc.data?.items.length ?? 0,
  };
}

/**
 * The back office's entries of the side menu, with how much waits in each queue. A file of
 * its own, loaded only for staff: the queues' API code is no part of a customer's pages.
 */
export function StaffNavItems({ onNavigate }: { onNavigate: () => void }) {
  const pendingCounts = usePendingCounts();
  return (
    <>
      {staffNavItems.map((item) => (
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
