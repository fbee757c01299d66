import {
  type MoneyRequest,
  moneyRequestListSchema,
  moneyRequestSchema,
} from '@coffer/contracts/admin';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client.ts';
import { adminQueryRoot, adminUserPath } from '../../lib/back-office.ts';

export function customerMoneyRequestsQueryOptions(userId: string) {
  return queryOptions({
    queryKey: [...adminQueryRoot, 'users', userId, 'money-requests'],
    queryFn: ({ signal }) =>
      apiRequest({
        path: `${adminUserPath(userId)}/money-requests`,
        schema: moneyRequestListSchema,
        signal,
      }),
  });
}

/** Deposits and adjustments waiting for a second admin, oldest first. */
export const depositQueueQueryOptions = queryOptions({
  queryKey: [...adminQueryRoot, 'queues', 'deposits'],
  queryFn: ({ signal }) =>
    apiRequest({ path: '/api/v1/admin/queues/deposits', schema: moneyRequestListSchema, signal }),
});

export type MoneyRequestDirection = MoneyRequest['direction'];

/**
 * Records a deposit or a debit adjustment. `idempotencyKey` names the person's one action:
 * a retry of the same submission sends the same key, so it cannot post twice.
 */
export function createMoneyRequest(
  userId: string,
  direction: MoneyRequestDirection,
  body: { amount: string; externalReference?: string; reason: string },
  idempotencyKey: string,
): Promise<MoneyRequest> {
  return apiRequest({
    method: 'POST',
    path: `${adminUserPath(userId)}/${direction === 'deposit' ? 'deposits' : 'adjustments'}`,
    body,
    headers: { 'idempotency-key': idempotencyKey },
    schema: moneyRequestSchema,
  });
}

export function decideMoneyRequest(
  requestId: string,
  decision: 'approve' | 'reject' | 'cancel',
  body: { reason?: string },
): Promise<MoneyRequest> {
  return apiRequest({
    method: 'POST',
    path: `/api/v1/admin/money-requests/${encodeURIComponent(requestId)}/${decision}`,
    body,
    schema: moneyRequestSchema,
  });
}
