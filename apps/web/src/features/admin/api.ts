import {
  type CustomerDetail,
  customerDetailSchema,
  customerListSchema,
  type MoneyRequest,
  moneyRequestListSchema,
  moneyRequestSchema,
  transactionPageSchema,
} from '@coffer/contracts/admin';
import { type AuditAction, auditPageSchema } from '@coffer/contracts/audit';
import type { Role } from '@coffer/contracts/auth';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client.ts';

/** Every back-office query starts with this key, so one invalidation refreshes them all. */
export const adminQueryRoot = ['admin'] as const;

const customerListPageSize = 25;
const transactionPageSize = 20;
const auditPageSize = 50;

function withQuery(path: string, query: Record<string, string | null | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value) params.set(name, value);
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

function userPath(userId: string): string {
  return `/api/v1/admin/users/${encodeURIComponent(userId)}`;
}

/** The customer list, newest first; the search runs on the server. */
export function customerListQueryOptions(search: string) {
  return infiniteQueryOptions({
    queryKey: [...adminQueryRoot, 'users', 'list', search],
    queryFn: ({ pageParam, signal }) =>
      apiRequest({
        path: withQuery('/api/v1/admin/users', {
          search,
          cursor: pageParam,
          limit: String(customerListPageSize),
        }),
        schema: customerListSchema,
        signal,
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
}

export function customerDetailQueryOptions(userId: string) {
  return queryOptions({
    queryKey: [...adminQueryRoot, 'users', userId],
    queryFn: ({ signal }) =>
      apiRequest({ path: userPath(userId), schema: customerDetailSchema, signal }),
  });
}

export function customerTransactionsQueryOptions(userId: string) {
  return infiniteQueryOptions({
    queryKey: [...adminQueryRoot, 'users', userId, 'transactions'],
    queryFn: ({ pageParam, signal }) =>
      apiRequest({
        path: withQuery(`${userPath(userId)}/transactions`, {
          cursor: pageParam,
          limit: String(transactionPageSize),
        }),
        schema: transactionPageSchema,
        signal,
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
}

export function customerMoneyRequestsQueryOptions(userId: string) {
  return queryOptions({
    queryKey: [...adminQueryRoot, 'users', userId, 'money-requests'],
    queryFn: ({ signal }) =>
      apiRequest({
        path: `${userPath(userId)}/money-requests`,
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

export type AuditFilter = {
  action?: AuditAction | undefined;
  actorUserId?: string | undefined;
  subjectUserId?: string | undefined;
};

export function auditQueryOptions(filter: AuditFilter) {
  return infiniteQueryOptions({
    queryKey: [...adminQueryRoot, 'audit', filter],
    queryFn: ({ pageParam, signal }) =>
      apiRequest({
        path: withQuery('/api/v1/admin/audit', {
          ...filter,
          cursor: pageParam,
          limit: String(auditPageSize),
        }),
        schema: auditPageSchema,
        signal,
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
}

export function setFrozen(userId: string, isFrozen: boolean, body: { reason: string }) {
  return apiRequest({
    method: 'POST',
    path: `${userPath(userId)}/${isFrozen ? 'freeze' : 'unfreeze'}`,
    body,
    schema: customerDetailSchema,
  });
}

export function setLevel(userId: string, body: { level: number; reason: string }) {
  return apiRequest({
    method: 'POST',
    path: `${userPath(userId)}/level`,
    body,
    schema: customerDetailSchema,
  });
}

export function setRole(
  userId: string,
  body: { role: Role; reason: string },
): Promise<CustomerDetail> {
  return apiRequest({
    method: 'POST',
    path: `${userPath(userId)}/role`,
    body,
    schema: customerDetailSchema,
  });
}

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
    path: `${userPath(userId)}/${direction === 'deposit' ? 'deposits' : 'adjustments'}`,
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

/** A second admin approves or rejects a pending grant of the admin role. */
export function decideRoleGrant(userId: string, decision: 'approve' | 'reject') {
  return apiRequest({
    method: 'POST',
    path: `${userPath(userId)}/role-grant/${decision}`,
    body: {},
    schema: customerDetailSchema,
  });
}
