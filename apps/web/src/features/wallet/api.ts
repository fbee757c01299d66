import {
  exchangeResultSchema,
  type QuoteBody,
  quoteSchema,
  ratesSchema,
} from '@coffer/contracts/exchange';
import {
  balanceHistorySchema,
  recentDepositsSchema,
  spendingSchema,
  type TestMoneyBody,
  testMoneyResponseSchema,
  testMoneyTermsSchema,
  walletSummarySchema,
  walletTransactionPageSchema,
} from '@coffer/contracts/wallet';
import { type OpenWalletBody, walletListItemSchema } from '@coffer/contracts/wallets';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client.ts';

// Every key starts with 'wallet': a live `wallet` event refreshes them all at once.

export const walletQueryOptions = queryOptions({
  queryKey: ['wallet', 'summary'],
  queryFn: ({ signal }) =>
    apiRequest({ path: '/api/v1/wallet', schema: walletSummarySchema, signal }),
});

const transactionPageSize = 10;

/** The wallet's transactions, newest first, a page at a time. */
export const transactionsQueryOptions = infiniteQueryOptions({
  queryKey: ['wallet', 'transactions'],
  queryFn: ({ pageParam, signal }) =>
    apiRequest({
      path: `/api/v1/wallet/transactions?${new URLSearchParams({
        limit: String(transactionPageSize),
        ...(pageParam ? { cursor: pageParam } : {}),
      }).toString()}`,
      schema: walletTransactionPageSchema,
      signal,
    }),
  initialPageParam: null as string | null,
  getNextPageParam: (page) => page.nextCursor,
});

export const balanceHistoryQueryOptions = queryOptions({
  queryKey: ['wallet', 'balance-history'],
  queryFn: ({ signal }) =>
    apiRequest({
      path: '/api/v1/wallet/balance-history?days=30',
      schema: balanceHistorySchema,
      signal,
    }),
});

/** The last six months' spending by category, for the dashboard's bars beside the balance. */
export const spendingQueryOptions = queryOptions({
  queryKey: ['wallet', 'spending'],
  queryFn: ({ signal }) =>
    apiRequest({ path: '/api/v1/wallet/spending', schema: spendingSchema, signal }),
});

export const recentDepositsQueryOptions = queryOptions({
  queryKey: ['wallet', 'deposits'],
  queryFn: ({ signal }) =>
    apiRequest({ path: '/api/v1/wallet/deposits', schema: recentDepositsSchema, signal }),
});

/**
 * Sandbox only. `idempotencyKey` names the person's one submission: a retry of it sends
 * the same key, so it cannot credit twice.
 */
/** Sandbox only: the operator's caps on test money and what was added today. */
export const testMoneyTermsQueryOptions = queryOptions({
  queryKey: ['wallet', 'test-money'],
  queryFn: ({ signal }) =>
    apiRequest({ path: '/api/v1/wallet/test-money', schema: testMoneyTermsSchema, signal }),
});

export function addTestMoney(body: TestMoneyBody, idempotencyKey: string) {
  return apiRequest({
    method: 'POST',
    path: '/api/v1/wallet/test-money',
    body,
    headers: { 'idempotency-key': idempotencyKey },
    schema: testMoneyResponseSchema,
  });
}

// Shared with the money forms that pay from a chosen wallet (lib/, as the allowances).
export { walletsQueryOptions } from '../../lib/wallets.ts';

export function openWallet(body: OpenWalletBody) {
  return apiRequest({
    method: 'POST',
    path: '/api/v1/wallets',
    body,
    schema: walletListItemSchema,
  });
}

/** The mid rates the exchange page shows and whether exchange is available now. */
export const exchangeRatesQueryOptions = queryOptions({
  queryKey: ['wallet', 'exchange-rates'],
  queryFn: ({ signal }) =>
    apiRequest({ path: '/api/v1/exchange/rates', schema: ratesSchema, signal }),
});

export function requestQuote(body: QuoteBody) {
  return apiRequest({ method: 'POST', path: '/api/v1/exchange/quotes', body, schema: quoteSchema });
}

/** Accepting executes exactly that quote once: the quote id is the key, no header needed. */
export function acceptQuote(quoteId: string) {
  return apiRequest({
    method: 'POST',
    path: `/api/v1/exchange/quotes/${encodeURIComponent(quoteId)}/accept`,
    schema: exchangeResultSchema,
  });
}
