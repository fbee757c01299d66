import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../lib/api-client.ts';

const queryRetryCountMax = 2;

export function createQueryClient(): QueryClient {
  return new QueryClient({
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
}
