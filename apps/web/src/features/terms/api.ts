import { termsResponseSchema } from '@coffer/contracts/terms';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, noContentSchema } from '../../lib/api-client.ts';
import { meQueryKey } from '../../lib/session.ts';

/** The operator's terms and privacy notice; `terms` null where none are published. */
export const termsQueryOptions = queryOptions({
  queryKey: ['terms'],
  queryFn: ({ signal }) =>
    apiRequest({ path: '/api/v1/public/terms', schema: termsResponseSchema, signal }),
  staleTime: 10 * 60_000,
});

/** Accepts the version read; the session then says nothing is left to accept. */
export function useAcceptTerms() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { version: string }) =>
      apiRequest({
        method: 'POST',
        path: '/api/v1/terms/acceptance',
        body,
        schema: noContentSchema,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: meQueryKey }),
    // A refusal for an old version means the terms changed: show the new ones.
    onError: () => queryClient.invalidateQueries({ queryKey: termsQueryOptions.queryKey }),
  });
}
