import type { rejectBodySchema } from '@coffer/contracts/admin';
import {
  type Payout,
  type PayoutBody,
  payoutPageSchema,
  payoutSchema,
  payoutTermsSchema,
  type StaffPayout,
  type sendPayoutBodySchema,
  staffPayoutListSchema,
  staffPayoutSchema,
} from '@coffer/contracts/payouts';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { z } from 'zod/mini';
import { apiRequest } from '../../lib/api-client.ts';

/** Live `payouts` events make every query under this root stale. */
export const payoutsQueryRoot = ['payouts'] as const;

const payoutPageSize = 10;

/**
 * The available balance and the fee of one wallet (`walletId`, or the main wallet when
 * null). Under `wallet`: every movement of money (a deposit, a Quick Pay, a payout decided)
 * changes what is available.
 */
export function payoutTermsQueryOptionsFor(walletId: string | null) {
  return queryOptions({
    queryKey: walletId === null ? ['wallet', 'payout-terms'] : ['wallet', 'payout-terms', walletId],
    queryFn: ({ signal }) =>
      apiRequest({
        path:
          walletId === null
            ? '/api/v1/payouts/terms'
            : `/api/v1/payouts/terms?${new URLSearchParams({ walletId }).toString()}`,
        schema: payoutTermsSchema,
        signal,
      }),
  });
}

/** The customer's withdrawals, newest first. */
export const myPayoutsQueryOptions = infiniteQueryOptions({
  queryKey: [...payoutsQueryRoot, 'list'],
  queryFn: ({ pageParam, signal }) =>
    apiRequest({
      path: `/api/v1/payouts?${new URLSearchParams({
        limit: String(payoutPageSize),
        ...(pageParam ? { cursor: pageParam } : {}),
      }).toString()}`,
      schema: payoutPageSchema,
      signal,
    }),
  initialPageParam: null as string | null,
  getNextPageParam: (page) => page.nextCursor,
});

/** `idempotencyKey` names the one confirmation: every retry of it sends the same key. */
export function requestPayout(body: PayoutBody, idempotencyKey: string): Promise<Payout> {
  return apiRequest({
    method: 'POST',
    path: '/api/v1/payouts',
    body,
    headers: { 'idempotency-key': idempotencyKey },
    schema: payoutSchema,
  });
}

// Back-office queries start with 'admin', so every live event refreshes them for staff.

/** Payouts waiting for staff, oldest first. */
export const payoutQueueQueryOptions = queryOptions({
  queryKey: ['admin', 'queues', 'payouts'],
  queryFn: ({ signal }) =>
    apiRequest({ path: '/api/v1/admin/queues/payouts', schema: staffPayoutListSchema, signal }),
});

export function customerPayoutsQueryOptions(userId: string) {
  return queryOptions({
    queryKey: ['admin', 'users', userId, 'payouts'],
    queryFn: ({ signal }) =>
      apiRequest({
        path: `/api/v1/admin/users/${encodeURIComponent(userId)}/payouts`,
        schema: staffPayoutListSchema,
        signal,
      }),
  });
}

export function sendPayout(
  payoutId: string,
  body: z.input<typeof sendPayoutBodySchema>,
): Promise<StaffPayout> {
  return apiRequest({
    method: 'POST',
    path: `/api/v1/admin/payouts/${encodeURIComponent(payoutId)}/send`,
    body,
    schema: staffPayoutSchema,
  });
}

export function rejectPayout(
  payoutId: string,
  body: z.input<typeof rejectBodySchema>,
): Promise<StaffPayout> {
  return apiRequest({
    method: 'POST',
    path: `/api/v1/admin/payouts/${encodeURIComponent(payoutId)}/reject`,
    body,
    schema: staffPayoutSchema,
  });
}
