import { reportsSchema } from '@coffer/contracts/reports';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client.ts';
import { adminQueryRoot, withQuery } from '../../lib/back-office.ts';

export type ReportsPeriod = { from: string; to: string; currency: string };

/** The institution's report for a period and currency; the last one stays while the next loads. */
export function reportsQueryOptions(period: ReportsPeriod) {
  return queryOptions({
    queryKey: [...adminQueryRoot, 'reports', period],
    queryFn: ({ signal }) =>
      apiRequest({
        path: withQuery('/api/v1/admin/reports', period),
        schema: reportsSchema,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}
