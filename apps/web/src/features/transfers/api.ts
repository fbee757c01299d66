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
 * Who an account number or email belongs to, masked. Kept outside the `transfers` root:
 * a live event must not ask the (rate-limited) server again for a name that cannot change.
 */
export function recipientPreviewQueryOptions(recipient: string) {
  return queryOptions({
    queryKey: ['recipient-preview', recipient],
    queryFn: ({ signal }) =>
      apiRequest({
        method: 'POST',
        path: '/api/v1/transfers/recipient-preview',
        body: { recipient },
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
