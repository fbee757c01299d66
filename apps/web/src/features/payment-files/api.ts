import {
  cardSettlementImportSchema,
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

/** Sends a payment file's bytes as they are: the server checks and parses them. */
async function uploadFile<T>(
  path: string,
  file: File,
  contentType: string,
  schema: Parameters<typeof parseAnswer<T>>[1],
): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': contentType },
      body: file,
      credentials: 'same-origin',
    });
  } catch (error) {
    throw clientError('network_error', 0, error);
  }
  const json: unknown = await response.json().catch(() => undefined);
  return parseAnswer({ status: response.status, json }, schema);
}

export function uploadStatement(file: File) {
  return uploadFile(
    '/api/v1/admin/bank-statements',
    file,
    'application/xml',
    statementImportSchema,
  );
}

/** The processor's settlement file of `day` (YYYY-MM-DD, the institution's time zone). */
export function uploadCardSettlements(file: File, day: string) {
  return uploadFile(
    `/api/v1/admin/card-settlements?day=${encodeURIComponent(day)}`,
    file,
    'text/csv',
    cardSettlementImportSchema,
  );
}

export function sandboxSettlementFilePath(day: string): string {
  return `/api/v1/admin/card-settlements/sandbox-file?day=${encodeURIComponent(day)}`;
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
