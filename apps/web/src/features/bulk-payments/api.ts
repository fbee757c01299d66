import {
  type BulkPayment,
  bulkPaymentListSchema,
  bulkPaymentSchema,
  type ConfirmBulkPaymentBody,
} from '@coffer/contracts/bulk-payments';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client.ts';
import { uploadWithProgress } from '../../lib/upload.ts';

/** While a file is paying its page asks for it this often: the progress bar moves with it. */
const payingPollMs = 1_000;

// Keys start with 'transfers': a live `transfers` event (a batch was paid) refreshes them.
export const bulkPaymentsQueryOptions = queryOptions({
  queryKey: ['transfers', 'bulk-payments'],
  queryFn: ({ signal }) =>
    apiRequest({ path: '/api/v1/bulk-payments', schema: bulkPaymentListSchema, signal }),
});

export function bulkPaymentQueryOptions(bulkPaymentId: string) {
  return queryOptions({
    queryKey: ['transfers', 'bulk-payments', bulkPaymentId],
    queryFn: ({ signal }) =>
      apiRequest({
        path: `/api/v1/bulk-payments/${encodeURIComponent(bulkPaymentId)}`,
        schema: bulkPaymentSchema,
        signal,
      }),
    refetchInterval: (query) => (query.state.data?.status === 'paying' ? payingPollMs : false),
  });
}

/** Where the result file of a paid (or paying) file downloads from. */
export function bulkResultPath(bulkPaymentId: string): string {
  return `/api/v1/bulk-payments/${encodeURIComponent(bulkPaymentId)}/result`;
}

/** Sends the file with upload progress; a refused file's ApiError names its problems by line. */
export function uploadBulkFile(
  file: Blob,
  onProgress: (fraction: number) => void,
): Promise<BulkPayment> {
  return uploadWithProgress({
    path: '/api/v1/bulk-payments',
    contentType: 'text/csv',
    file,
    schema: bulkPaymentSchema,
    onProgress,
  });
}

/**
 * Confirms a checked file. `idempotencyKey` names the one confirmation: a retry after a
 * lost answer sends the same key and gets the first answer, not "confirmed already".
 */
export function confirmBulkPayment(
  bulkPaymentId: string,
  body: ConfirmBulkPaymentBody,
  idempotencyKey: string,
): Promise<BulkPayment> {
  return apiRequest({
    method: 'POST',
    path: `/api/v1/bulk-payments/${encodeURIComponent(bulkPaymentId)}/confirm`,
    body,
    headers: { 'idempotency-key': idempotencyKey },
    schema: bulkPaymentSchema,
  });
}

// Back-office queries start with 'admin', so every live event refreshes them for staff.
export function customerBulkPaymentsQueryOptions(userId: string) {
  return queryOptions({
    queryKey: ['admin', 'users', userId, 'bulk-payments'],
    queryFn: ({ signal }) =>
      apiRequest({
        path: `/api/v1/admin/users/${encodeURIComponent(userId)}/bulk-payments`,
        schema: bulkPaymentListSchema,
        signal,
      }),
  });
}
