import { useCallback, useEffect, useRef, useSyncExternalStore } from 'react';
import { useQueryClient } from './provider.tsx';
import type {
  AnyQueryOptions,
  InfiniteData,
  InfiniteQueryOptions,
  Query,
  QueryObserver,
  QueryOptions,
  QueryState,
} from './query-cache.ts';
import type { QueryKey } from './query-key.ts';
import { isSameForReader, type ProgressField, trackProgress } from './tracked-result.ts';

type QueryResultBase = {
  isFetching: boolean;
  /** Pending and fetching: the first answer is on its way. */
  isLoading: boolean;
  /** The data shown is `placeholderData` (the previous key's), not this key's. */
  isPlaceholderData: boolean;
  /** Failed attempts of the current (or last) fetch. */
  failureCount: number;
  /** Fetches again (dropping a fetch under way); never throws, the state says how it went. */
  refetch: () => Promise<void>;
};

export type UseQueryResult<TData = unknown, TError = Error> = QueryResultBase &
  (
    | {
        status: 'pending';
        isPending: true;
        isError: false;
        isSuccess: false;
        data: undefined;
        error: null;
      }
    | {
        status: 'error';
        isPending: false;
        isError: true;
        isSuccess: false;
        data: TData | undefined;
        error: TError;
      }
    | {
        status: 'success';
        isPending: false;
        isError: false;
        isSuccess: true;
        data: TData;
        error: null;
      }
  );

export type UseInfiniteQueryResult<
  TPage = unknown,
  TParam = unknown,
  TError = Error,
> = UseQueryResult<InfiniteData<TPage, TParam>, TError> & {
  fetchNextPage: () => Promise<void>;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
};

const noop = () => {};

function useBaseQuery(options: AnyQueryOptions) {
  const client = useQueryClient();
  const defaulted = client.defaultQueryOptions(options);
  const query = client.queryCache.build(defaulted);
  const observerRef = useRef<QueryObserver | null>(null);
  observerRef.current ??= { options: defaulted, onChange: noop };
  const observer = observerRef.current;
  observer.options = defaulted;

  const subscribe = useCallback(
    (onChange: () => void) => {
      observer.onChange = onChange;
      return query.subscribe(observer);
    },
    [query, observer],
  );
  // The fields of how the fetch is going that this component has read (`trackProgress`).
  const progressRead = useRef(new Set<ProgressField>()).current;
  const shown = useRef<{ query: Query; state: QueryState } | null>(null);
  const getState = useCallback(() => {
    const next = query.state;
    const last = shown.current;
    if (last?.query === query && isSameForReader(last.state, next, progressRead)) {
      return last.state;
    }
    shown.current = { query, state: next };
    return next;
  }, [query, progressRead]);
  // The same state on the server and in the first render that hydrates its markup: the
  // cache holds the answers the server embedded before the app renders (src/main.tsx).
  const state = useSyncExternalStore(subscribe, getState, getState);

  const isEnabled = defaulted.enabled !== false;
  // The query this hook has fetched on mount: until then a query it will fetch shows as
  // fetching already, as it will be once the effect below has run.
  const mountedQuery = useRef<Query | null>(null);
  useEffect(() => {
    mountedQuery.current = query;
    if (isEnabled && query.isStale(observer.options.staleTime)) query.fetch().catch(noop);
  }, [query, isEnabled, observer]);

  const interval =
    typeof defaulted.refetchInterval === 'function'
      ? defaulted.refetchInterval(query)
      : defaulted.refetchInterval;
  useEffect(() => {
    if (!isEnabled || !interval) return;
    const timer = setInterval(() => {
      if (document.visibilityState !== 'hidden') query.fetch().catch(noop);
    }, interval);
    return () => clearInterval(timer);
  }, [query, isEnabled, interval]);

  const refetch = useCallback(() => query.fetch({ cancelRefetch: true }).then(noop, noop), [query]);

  const willFetch =
    mountedQuery.current !== query &&
    isEnabled &&
    !state.isFetching &&
    query.isStale(defaulted.staleTime);
  const isFetching = state.isFetching || willFetch;
  // A query with no data that is about to be fetched again (a failure, shown anew) is
  // pending, with no failures yet, as it will be once its fetch has started.
  let status = willFetch && state.data === undefined ? 'pending' : state.status;
  // The last data this hook showed, for `placeholderData` while a new key has none.
  const previousData = useRef<unknown>(undefined);
  if (state.data !== undefined) previousData.current = state.data;
  let data = state.data;
  const placeholder =
    status === 'pending' ? defaulted.placeholderData?.(previousData.current) : undefined;
  if (placeholder !== undefined) {
    data = placeholder;
    status = 'success';
  }
  return {
    query,
    state,
    progressRead,
    result: {
      status,
      data,
      error: status === 'error' ? state.error : null,
      isPending: status === 'pending',
      isError: status === 'error',
      isSuccess: status === 'success',
      isFetching,
      isLoading: status === 'pending' && isFetching,
      isPlaceholderData: placeholder !== undefined,
      failureCount: willFetch ? 0 : state.failureCount,
      refetch,
    },
  };
}

/** A query's answer, fetched when shown and stale, refetched on invalidation and focus. */
export function useQuery<TData, TKey extends QueryKey = QueryKey>(
  options: QueryOptions<TData, TKey>,
): UseQueryResult<TData> {
  const { result, progressRead } = useBaseQuery(options as unknown as AnyQueryOptions);
  return trackProgress(result, progressRead) as unknown as UseQueryResult<TData>;
}

/** A query of pages: the first page, and the next one on `fetchNextPage`. */
export function useInfiniteQuery<TPage, TParam, TKey extends QueryKey = QueryKey>(
  options: InfiniteQueryOptions<TPage, TParam, TKey>,
): UseInfiniteQueryResult<TPage, TParam> {
  const { query, state, result, progressRead } = useBaseQuery(
    options as unknown as AnyQueryOptions,
  );
  const fetchNextPage = useCallback(
    () => query.fetch({ cancelRefetch: true, nextPage: true }).then(noop, noop),
    [query],
  );
  const pages = (state as QueryState<InfiniteData<TPage, TParam>>).data;
  const lastPage = pages?.pages.at(-1);
  const nextPageParam =
    pages && lastPage !== undefined
      ? options.getNextPageParam(
          lastPage,
          pages.pages,
          pages.pageParams.at(-1) as TParam,
          pages.pageParams,
        )
      : undefined;
  return trackProgress(
    {
      ...result,
      fetchNextPage,
      hasNextPage: nextPageParam !== null && nextPageParam !== undefined,
      isFetchingNextPage: state.isFetchingNextPage,
    },
    progressRead,
  ) as unknown as UseInfiniteQueryResult<TPage, TParam>;
}
