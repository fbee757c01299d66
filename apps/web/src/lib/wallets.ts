import { walletListSchema } from '@coffer/contracts/wallets';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from './api-client.ts';

/**
 * Every wallet with its balance, and their total in the main currency as an estimate: read
 * by the wallet pages and by the money forms that let the customer choose the wallet they
 * pay from. Its key starts with 'wallet', so a live `wallet` event refreshes it.
 */
export const walletsQueryOptions = queryOptions({
  queryKey: ['wallet', 'list'],
  queryFn: ({ signal }) =>
    apiRequest({ path: '/api/v1/wallets', schema: walletListSchema, signal }),
});
