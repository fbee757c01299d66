import {
  payoutBatchListSchema,
  payoutBatchSchema,
  type ReconciliationItem,
  type ResolveReconciliationBody,
  reconciliationItemSchema,
  reconciliationListSchema,
  statementImportSchema,
} from '@coffer/contracts/payment-files';
import { staffPayoutListSchema } from '@coffer/contracts/payouts';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest, clientError, parseAnswer } from '../../lib/api-client.ts';
import { adminQueryRoot } from '../../lib/back-office.ts';

const root = [...adminQueryRoot, 'payment-files'] as const;

export const pendingPayoutsQueryOptions = queryOptions({
  queryKey: [...root, 'pending-payouts'],
  queryFn: ({ signal }) =>
    apiRequest({ path: '/api/v1/admin/queues/payouts', schema: staffPayoutListSchema, signal }),
});

export const payoutBatchesQueryOptions = queryOptions({
  queryKey: [...root, 'batches'],
  queryFn: ({ signal }) =>
    apiRequest({ path: '/api/v1/admin/payout-batches', schema: payoutBatchListSchema, signal }),
});

export const reconciliationQueryOptions = queryOptions({
  queryKey: [...root, 'reconciliation'],
  queryFn: ({ signal }) =>
    apiRequest({ path: '/api/v1/admin/reconciliation', schema: reconciliationListSchema, signal }),
});

export function batchFilePath(batchId: string): string {
  return `/api/v1/admin/payout-batches/${batchId}/file`;
}

export function createPayoutBatch(payoutIds: string[]) {
  return apiRequest({
    method: 'POST',
    path: '/api/v1/admin/payout-batches',
    schema: payoutBatchSchema,
    body: { payoutIds },
  });
}

/** Sends the statement file's bytes as they are: the server checks and parses them. */
export async function uploadStatement(file: File) {
  let response: Response;
  try {
    response = await fetch('/api/v1/admin/bank-statements', {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/xml' },
      body: file,
      credentials: 'same-origin',
    });
  } catch (error) {
    throw clientError('network_error', 0, error);
  }
  const json: unknown = await response.json().catch(() => undefined);
  return parseAnswer({ status: response.status, json }, statementImportSchema);
}

export function resolveItem(
  item: ReconciliationItem,
  body: ResolveReconciliationBody,
): Promise<ReconciliationItem> {
  return apiRequest({
    method: 'POST',
    path: `/api/v1/admin/reconciliation/${item.id}/resolve`,
    schema: reconciliationItemSchema,
    body,
  });
}
