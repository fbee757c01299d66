import type { InfiniteData, InfiniteQueryOptions, QueryOptions } from './query-cache.ts';
import type { DataTag, QueryKey } from './query-key.ts';

/** A query's options as they are, with its key tagged with the data's type. */
export function queryOptions<TData, TKey extends QueryKey = QueryKey>(
  options: QueryOptions<TData, TKey>,
): QueryOptions<TData, TKey> & { queryKey: DataTag<TKey, TData> } {
  return options as QueryOptions<TData, TKey> & { queryKey: DataTag<TKey, TData> };
}

/** An infinite query's options as they are, with its key tagged with the data's type. */
export function infiniteQueryOptions<TPage, TParam, TKey extends QueryKey = QueryKey>(
  options: InfiniteQueryOptions<TPage, TParam, TKey>,
): InfiniteQueryOptions<TPage, TParam, TKey> & {
  queryKey: DataTag<TKey, InfiniteData<TPage, TParam>>;
} {
  return options as InfiniteQueryOptions<TPage, TParam, TKey> & {
    queryKey: DataTag<TKey, InfiniteData<TPage, TParam>>;
  };
}

/**
 * `placeholderData` that keeps the previous key's data on screen until the new key's
 * first answer (a new search or period): the hook says success, with the old data.
 */
export function keepPreviousData<T>(previousData: T): T {
  return previousData;
}
