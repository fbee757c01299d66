import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from '../lib/api-client.ts';
import { meQueryKey, setSignedInUser } from '../lib/session.ts';

const queryRetryCountMax = 2;

export function createQueryClient(): QueryClient {
  // When the server says the session is gone (idle timeout, signed out elsewhere, a password
  // reset), forget the user: the route guard then sends them to the login page and back.
  // When it says new terms wait for acceptance (published while the app was open), ask the
  // session again: it says so too, and the route guard sends them to the terms.
  const onError = (error: unknown) => {
    if (!(error instanceof ApiError) || !queryClient.getQueryData(meQueryKey)) return;
    if (error.code === 'unauthenticated') setSignedInUser(queryClient, null);
    if (error.code === 'terms_acceptance_required') {
      void queryClient.invalidateQueries({ queryKey: meQueryKey });
    }
  };
  const queryClient: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        // Asking again cannot turn a 4xx into a success; a dropped connection or a 5xx may.
        retry: (failureCount, error) =>
          failureCount < queryRetryCountMax && (!(error instanceof ApiError) || error.isRetryable),
      },
      mutations: { retry: false },
    },
  });
  return queryClient;
}
