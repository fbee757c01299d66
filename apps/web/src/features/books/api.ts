import { trialBalanceSchema } from '@coffer/contracts/books';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client.ts';
import { adminQueryRoot, withQuery } from '../../lib/back-office.ts';

export const trialBalancePath = '/api/v1/admin/books/trial-balance';

/** A day's trial balance; under 'admin', so live events refresh a provisional day. */
export function trialBalanceQueryOptions(date: string) {
  return queryOptions({
    queryKey: [...adminQueryRoot, 'books', 'trial-balance', date],
    queryFn: ({ signal }) =>
      apiRequest({
        path: withQuery(trialBalancePath, { date }),
        schema: trialBalanceSchema,
        signal,
      }),
  });
}
