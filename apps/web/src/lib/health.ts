import { healthResponseSchema } from '@coffer/contracts/health';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from './api-client.ts';

/**
 * The server's health answer: whether it is up, which database it uses and whether this
 * installation is a sandbox. The shell and the dashboard read the same cached answer.
 */
export const healthQueryOptions = queryOptions({
  queryKey: ['health'],
  queryFn: ({ signal }) =>
    apiRequest({ path: '/api/v1/health', schema: healthResponseSchema, signal }),
  staleTime: 60_000,
});
