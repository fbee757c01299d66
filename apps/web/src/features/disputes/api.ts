import {
  type Dispute,
  disputeListSchema,
  disputeSchema,
  disputeTransactionListSchema,
  disputeTransactionSchema,
  type StaffDispute,
  staffDisputeListSchema,
  staffDisputeSchema,
} from '@coffer/contracts/disputes';
import type { DisputeBody } from '@coffer/contracts/disputes-filing';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client.ts';

/** Live `disputes` events make every query under this root stale. */
export const disputesQueryRoot = ['disputes'] as const;

export const myDisputesQueryOptions = queryOptions({
  queryKey: [...disputesQueryRoot, 'list'],
  queryFn: ({ signal }) =>
    apiRequest({ path: '/api/v1/disputes', schema: disputeListSchema, signal }),
});

/** Under `wallet`: every movement of money changes what can be picked. */
export const disputableTransactionsQueryOptions = queryOptions({
  queryKey: ['wallet', 'disputable-transactions'],
  queryFn: ({ signal }) =>
    apiRequest({
      path: '/api/v1/disputes/transactions',
      schema: disputeTransactionListSchema,
      signal,
    }),
});

/** One of the customer's transactions, as a row's Dispute button opens the form on it. */
export function disputableTransactionQueryOptions(entryId: string) {
  return queryOptions({
    queryKey: ['wallet', 'disputable-transactions', entryId],
    queryFn: ({ signal }) =>
      apiRequest({
        path: `/api/v1/disputes/transactions/${encodeURIComponent(entryId)}`,
        schema: disputeTransactionSchema,
        signal,
      }),
  });
}

export function fileDispute(body: DisputeBody): Promise<Dispute> {
  return apiRequest({ method: 'POST', path: '/api/v1/disputes', body, schema: disputeSchema });
}

// Back-office queries start with 'admin', so every live event refreshes them for staff.

export const disputeQueueQueryOptions = queryOptions({
  queryKey: ['admin', 'queues', 'disputes'],
  queryFn: ({ signal }) =>
    apiRequest({ path: '/api/v1/admin/queues/disputes', schema: staffDisputeListSchema, signal }),
});

export function customerDisputesQueryOptions(userId: string) {
  return queryOptions({
    queryKey: ['admin', 'users', userId, 'disputes'],
    queryFn: ({ signal }) =>
      apiRequest({
        path: `/api/v1/admin/users/${encodeURIComponent(userId)}/disputes`,
        schema: staffDisputeListSchema,
        signal,
      }),
  });
}

export function disputeByReferenceQueryOptions(reference: string) {
  return queryOptions({
    queryKey: ['admin', 'disputes', reference],
    queryFn: ({ signal }) =>
      apiRequest({
        path: `/api/v1/admin/disputes/${encodeURIComponent(reference)}`,
        schema: staffDisputeSchema,
        signal,
      }),
  });
}

export type DisputeDecision =
  | { step: 'investigate'; note?: string }
  | { step: 'reject'; note: string }
  | { step: 'resolve'; note: string; refundAmount?: string };

/** A resolution may create a refund, so it carries the confirmation's Idempotency-Key. */
export function decideDispute(
  disputeId: string,
  { step, ...body }: DisputeDecision,
  idempotencyKey: string,
): Promise<StaffDispute> {
  return apiRequest({
    method: 'POST',
    path: `/api/v1/admin/disputes/${encodeURIComponent(disputeId)}/${step}`,
    body,
    headers: step === 'resolve' ? { 'idempotency-key': idempotencyKey } : {},
    schema: staffDisputeSchema,
  });
}
