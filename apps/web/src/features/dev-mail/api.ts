import { devMailListSchema } from '@coffer/contracts/site';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client.ts';

/** Mail the sandbox "sent" (GET /dev/mail); a 404 outside sandbox mode. */
export const devMailQueryOptions = queryOptions({
  queryKey: ['dev-mail'],
  queryFn: ({ signal }) =>
    apiRequest({ path: '/api/v1/dev/mail', schema: devMailListSchema, signal }),
  // New mail shows up by itself; outside a sandbox (404) there is nothing to wait for.
  refetchInterval: (query) => (query.state.status === 'error' ? false : 5_000),
  staleTime: 0,
});
