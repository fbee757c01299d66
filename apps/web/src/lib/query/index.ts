// Coffer's query cache (docs/decisions/033): TanStack Query's names for the part of it the
// app uses.
export { MutationCache } from './mutation.ts';
export { infiniteQueryOptions, keepPreviousData, queryOptions } from './options.ts';
export { QueryClientProvider, useQueryClient } from './provider.tsx';
export {
  type InfiniteData,
  type InfiniteQueryOptions,
  type Query,
  QueryCache,
  type QueryOptions,
} from './query-cache.ts';
export { QueryClient } from './query-client.ts';
export type { DataTag, QueryKey } from './query-key.ts';
export { type UseMutationResult, useMutation } from './use-mutation.ts';
export {
  type UseInfiniteQueryResult,
  type UseQueryResult,
  useInfiniteQuery,
  useQuery,
} from './use-query.ts';
