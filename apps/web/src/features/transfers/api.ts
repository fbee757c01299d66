import {
  type QuickPayBody,
  recipientPreviewSchema,
  type Transfer,
  transferListSchema,
  transferSchema,
} from '@coffer/contracts/transfers';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client.ts';

/** Live `transfers` events make every query under this root stale. */
export const transfersQueryRoot = ['transfers'] as const;

const transferPageSize = 10;
/** A name looked up stays shown this long without asking the server again. */
const previewStaleTimeMs = 5 * 60 * 1000;

/** The customer's Quick Pays, sent and received, newest first. */
export const transfersQueryOptions = infiniteQueryOptions({
  queryKey: [...transfersQueryRoot, 'list'],
  queryFn: ({ pageParam, signal }) =>
    apiRequest({
      path: `/api/v1/transfers?${new URLSearchParams({
        limit: String(transferPageSize),
        ...(pageParam ? { cursor: pageParam } : {}),
      }).toString()}`,
      schema: transferListSchema,
      signal,
    }),
  initialPageParam: null as string | null,
  getNextPageParam: (page) => page.nextCursor,
});

/**
 * Who an account number or email belongs to, masked, if they can be paid from the wallet
 * (`walletId`, or the main wallet when null): they must hold one in its currency. Kept
 * outside the `transfers` root: a live event must not ask the (rate-limited) server again
 * for a name that cannot change.
 */
export function recipientPreviewQueryOptions(recipient: string, walletId: string | null) {
  return queryOptions({
    queryKey: ['recipient-preview', recipient, walletId],
    queryFn: ({ signal }) =>
      apiRequest({
        method: 'POST',
        path: '/api/v1/transfers/recipient-preview',
        body: walletId === null ? { recipient } : { recipient, walletId },
        schema: recipientPreviewSchema,
        signal,
      }),
    staleTime: previewStaleTimeMs,
    retry: false,
  });
}

export function sendQuickPay(body: QuickPayBody, idempotencyKey: string): Promise<Transfer> {
  return apiRequest({
    method: 'POST',
    path: '/api/v1/transfers',
    body,
    headers: { 'idempotency-key': idempotencyKey },
    schema: transferSchema,
  });
}
