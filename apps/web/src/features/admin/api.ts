import {
  type CustomerDetail,
  customerDetailSchema,
  customerListSchema,
  transactionPageSchema,
} from '@coffer/contracts/admin';
import type { Role } from '@coffer/contracts/auth';
import {
  type MarkupChangeBody,
  type MarkupResetBody,
  pairMarkupSchema,
  staffRatesSchema,
} from '@coffer/contracts/fx-markups';
import { staffWalletListSchema } from '@coffer/contracts/wallets';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client.ts';
import { adminQueryRoot, adminUserPath, withQuery } from '../../lib/back-office.ts';

const customerListPageSize = 25;
const transactionPageSize = 20;

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

export function customerTransactionsQueryOptions(userId: string) {
  return infiniteQueryOptions({
    queryKey: [...adminQueryRoot, 'users', userId, 'transactions'],
    queryFn: ({ pageParam, signal }) =>
      apiRequest({
        path: withQuery(`${adminUserPath(userId)}/transactions`, {
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

export function setFrozen(userId: string, isFrozen: boolean, body: { reason: string }) {
  return apiRequest({
    method: 'POST',
    path: `${adminUserPath(userId)}/${isFrozen ? 'freeze' : 'unfreeze'}`,
    body,
    schema: customerDetailSchema,
  });
}

export function setLevel(userId: string, body: { level: number; reason: string }) {
  return apiRequest({
    method: 'POST',
    path: `${adminUserPath(userId)}/level`,
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
    path: `${adminUserPath(userId)}/role`,
    body,
    schema: customerDetailSchema,
  });
}

/** A second admin approves or rejects a pending grant of the admin role. */
export function decideRoleGrant(userId: string, decision: 'approve' | 'reject') {
  return apiRequest({
    method: 'POST',
    path: `${adminUserPath(userId)}/role-grant/${decision}`,
    body: {},
    schema: customerDetailSchema,
  });
}

/** The exchange's mid rates with their time, each pair's markup and the source's health. */
export const exchangeRatesQueryOptions = queryOptions({
  queryKey: [...adminQueryRoot, 'exchange-rates'],
  queryFn: ({ signal }) =>
    apiRequest({ path: '/api/v1/admin/exchange/rates', schema: staffRatesSchema, signal }),
});

/** Sends a markup change ("EUR/JPY" is EUR-JPY in the path) once per `idempotencyKey`. */
function sendMarkup(
  method: 'PUT' | 'DELETE',
  pair: string,
  body: MarkupChangeBody | MarkupResetBody,
  idempotencyKey: string,
) {
  return apiRequest({
    method,
    path: `/api/v1/admin/exchange/markups/${pair.replace('/', '-')}`,
    body,
    headers: { 'idempotency-key': idempotencyKey },
    schema: pairMarkupSchema,
  });
}

/** An admin sets a pair's markup. */
export const setMarkup = (pair: string, body: MarkupChangeBody, idempotencyKey: string) =>
  sendMarkup('PUT', pair, body, idempotencyKey);

/** An admin returns a pair to the configured markup. */
export const resetMarkup = (pair: string, body: MarkupResetBody, idempotencyKey: string) =>
  sendMarkup('DELETE', pair, body, idempotencyKey);

/** A customer's wallets, each with its balance (issue #33). */
export function customerWalletsQueryOptions(userId: string) {
  return queryOptions({
    queryKey: [...adminQueryRoot, 'users', userId, 'wallets'],
    queryFn: ({ signal }) =>
      apiRequest({
        path: `${adminUserPath(userId)}/wallets`,
        schema: staffWalletListSchema,
        signal,
      }),
  });
}
