import {
  type BillPaymentBody,
  billPaymentListSchema,
  billPaymentSchema,
} from '@coffer/contracts/bills';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client.ts';

// Keys start with 'bill-payments': a live `bill-payments` event refreshes them.
export const billPaymentsQueryRoot = ['bill-payments'] as const;

const historyPageSize = 10;

/** The customer's bill payments, newest first, a page at a time. */
export const billPaymentsQueryOptions = infiniteQueryOptions({
  queryKey: [...billPaymentsQueryRoot, 'history'],
  queryFn: ({ pageParam, signal }) =>
    apiRequest({
      path: `/api/v1/bill-payments?${new URLSearchParams({
        limit: String(historyPageSize),
        ...(pageParam ? { cursor: pageParam } : {}),
      }).toString()}`,
      schema: billPaymentListSchema,
      signal,
    }),
  initialPageParam: null as string | null,
  getNextPageParam: (page) => page.nextCursor,
});

/** Pays a bill; a retry of the same submission sends the same key and is paid once. */
export function payBill(body: BillPaymentBody, idempotencyKey: string) {
  return apiRequest({
    method: 'POST',
    path: '/api/v1/bill-payments',
    body,
    headers: { 'idempotency-key': idempotencyKey },
    schema: billPaymentSchema,
  });
}
