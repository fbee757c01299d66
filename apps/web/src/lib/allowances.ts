import { moneyOutAllowancesSchema } from '@coffer/contracts/limits';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from './api-client.ts';

/**
 * What the customer may still send, pay or withdraw today out of one wallet (`walletId`,
 * or the main wallet when null), in its currency: read by Quick Pay, Pay Bills and Withdraw
 * alike. Its key starts with 'wallet', so a payment's live `wallet` event makes it stale
 * with the rest of the wallet.
 */
export function allowancesQueryOptionsFor(walletId: string | null) {
  return queryOptions({
    queryKey: walletId === null ? ['wallet', 'allowances'] : ['wallet', 'allowances', walletId],
    queryFn: ({ signal }) =>
      apiRequest({
        path:
          walletId === null
            ? '/api/v1/wallet/allowances'
            : `/api/v1/wallet/allowances?${new URLSearchParams({ walletId }).toString()}`,
        schema: moneyOutAllowancesSchema,
        signal,
      }),
  });
}

/** The main wallet's allowances. */
export const allowancesQueryOptions = allowancesQueryOptionsFor(null);
