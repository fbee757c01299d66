import { moneyOutAllowancesSchema } from '@coffer/contracts/limits';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from './api-client.ts';

/**
 * What the customer may still send, pay or withdraw today: read by Quick Pay, Pay Bills and
 * Withdraw alike. Its key starts with 'wallet', so a payment's live `wallet` event makes it
 * stale with the rest of the wallet.
 */
export const allowancesQueryOptions = queryOptions({
  queryKey: ['wallet', 'allowances'],
  queryFn: ({ signal }) =>
    apiRequest({ path: '/api/v1/wallet/allowances', schema: moneyOutAllowancesSchema, signal }),
});
