import {
  type Card,
  cardAuthorizationListSchema,
  cardOverviewSchema,
  cardSchema,
  type SimulatePurchaseBody,
  type StaffCard,
  simulatedPurchaseSchema,
  staffCardListSchema,
  staffCardSchema,
} from '@coffer/contracts/cards';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client.ts';

// Customer keys start with 'cards': a live `cards` event refreshes them.
/** The card, and the terms of one funded from `walletId` (null: the main wallet). */
export function cardOverviewQueryOptionsFor(walletId: string | null) {
  return queryOptions({
    queryKey: ['cards', 'overview', walletId],
    queryFn: ({ signal }) =>
      apiRequest({
        path:
          walletId === null
            ? '/api/v1/cards'
            : `/api/v1/cards?${new URLSearchParams({ walletId }).toString()}`,
        schema: cardOverviewSchema,
        signal,
      }),
  });
}

export function cardActivityQueryOptions(cardId: string) {
  return queryOptions({
    queryKey: ['cards', cardId, 'authorizations'],
    queryFn: ({ signal }) =>
      apiRequest({
        path: `/api/v1/cards/${encodeURIComponent(cardId)}/authorizations`,
        schema: cardAuthorizationListSchema,
        signal,
      }),
  });
}

/**
 * Asks for a card funded from the chosen wallet (`walletId` absent: the main one) at the
 * fee the customer confirmed; the key makes a retry safe.
 */
export function requestCard(
  body: { confirmedFeeMinor: bigint; walletId?: string },
  idempotencyKey: string,
): Promise<Card> {
  return apiRequest({
    method: 'POST',
    path: '/api/v1/cards',
    body: { ...body, confirmedFeeMinor: body.confirmedFeeMinor.toString() },
    headers: { 'idempotency-key': idempotencyKey },
    schema: cardSchema,
  });
}

export function setCardFrozen(cardId: string, isFrozen: boolean): Promise<Card> {
  return apiRequest({
    method: 'POST',
    path: `/api/v1/cards/${encodeURIComponent(cardId)}/${isFrozen ? 'freeze' : 'unfreeze'}`,
    schema: cardSchema,
  });
}

/** Cancels the customer's card for good: a request's fee comes back, a card is closed. */
export function cancelCard(cardId: string): Promise<Card> {
  return apiRequest({
    method: 'POST',
    path: `/api/v1/cards/${encodeURIComponent(cardId)}/cancel`,
    schema: cardSchema,
  });
}

export function simulatePurchase(body: SimulatePurchaseBody, idempotencyKey: string) {
  return apiRequest({
    method: 'POST',
    path: '/api/v1/cards/simulated-purchases',
    body,
    headers: { 'idempotency-key': idempotencyKey },
    schema: simulatedPurchaseSchema,
  });
}

// Back-office queries start with 'admin', so every live event refreshes them for staff.

/** Card requests waiting for an admin, oldest first. */
export const cardQueueQueryOptions = queryOptions({
  queryKey: ['admin', 'queues', 'cards'],
  queryFn: ({ signal }) =>
    apiRequest({ path: '/api/v1/admin/queues/cards', schema: staffCardListSchema, signal }),
});

export function customerCardsQueryOptions(userId: string) {
  return queryOptions({
    queryKey: ['admin', 'users', userId, 'cards'],
    queryFn: ({ signal }) =>
      apiRequest({
        path: `/api/v1/admin/users/${encodeURIComponent(userId)}/cards`,
        schema: staffCardListSchema,
        signal,
      }),
  });
}

export function staffCardActivityQueryOptions(cardId: string) {
  return queryOptions({
    queryKey: ['admin', 'cards', cardId, 'authorizations'],
    queryFn: ({ signal }) =>
      apiRequest({
        path: `/api/v1/admin/cards/${encodeURIComponent(cardId)}/authorizations`,
        schema: cardAuthorizationListSchema,
        signal,
      }),
  });
}

/** A staff decision or freeze on a card: issue (reason optional), decline, freeze, unfreeze. */
export type StaffCardAction = 'issue' | 'decline' | 'freeze' | 'unfreeze';

export function actOnCard(
  cardId: string,
  action: StaffCardAction,
  reason: string,
): Promise<StaffCard | Card> {
  return apiRequest({
    method: 'POST',
    path: `/api/v1/admin/cards/${encodeURIComponent(cardId)}/${action}`,
    body: action === 'issue' && reason === '' ? {} : { reason },
    schema: action === 'issue' || action === 'decline' ? staffCardSchema : cardSchema,
  });
}
