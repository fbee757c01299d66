import {
  type BulkPayment,
  bulkPaymentListSchema,
  bulkPaymentSchema,
  type ConfirmBulkPaymentBody,
} from '@coffer/contracts/bulk-payments';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, parseAnswer } from '../../lib/api-client.ts';

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

/**
 * Sends the file's bytes with XMLHttpRequest, whose upload events report progress (fetch
 * has none). `onProgress` gets the fraction sent, 0 to 1. A refused file rejects with an
 * ApiError whose `fields` name its problems by line.
 */
export function uploadBulkFile(
  file: Blob,
  onProgress: (fraction: number) => void,
): Promise<BulkPayment> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', '/api/v1/bulk-payments');
    request.setRequestHeader('content-type', 'text/csv');
    request.setRequestHeader('accept', 'application/json');
    request.responseType = 'json';
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    });
    const settle = () => {
      try {
        resolve(parseAnswer({ status: request.status, json: request.response }, bulkPaymentSchema));
      } catch (error) {
        reject(error);
      }
    };
    request.addEventListener('load', settle);
    request.addEventListener('error', settle);
    request.addEventListener('abort', settle);
    request.send(file);
  });
}

export function useConfirmBulkPayment(bulkPaymentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ConfirmBulkPaymentBody) =>
      apiRequest({
        method: 'POST',
        path: `/api/v1/bulk-payments/${encodeURIComponent(bulkPaymentId)}/confirm`,
        body,
        schema: bulkPaymentSchema,
      }),
    onSuccess: (confirmed) => {
      queryClient.setQueryData(bulkPaymentQueryOptions(bulkPaymentId).queryKey, confirmed);
      return queryClient.invalidateQueries({ queryKey: bulkPaymentsQueryOptions.queryKey });
    },
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
