import { hashQueryKey, matchesQueryKey, type QueryKey, replaceEqualDeep } from './query-key.ts';

/** Whether to ask again after a failure: a count of retries, or a rule (`failureCount` from 0). */
export type RetryValue = boolean | number | ((failureCount: number, error: Error) => boolean);

/** How a query behaves, whoever asks for it: the client's defaults, its options, a hook's. */
export type QueryBehaviour<TData> = {
  /** How long an answer counts as fresh, in milliseconds: no refetch on mount or focus. */
  staleTime?: number;
  /** How long a query nobody shows stays in the cache, in milliseconds. */
  gcTime?: number;
  retry?: RetryValue;
  /** False: the query is not fetched, by its hook, an invalidation or a focus. */
  enabled?: boolean;
  refetchInterval?: number | false | ((query: Query<TData>) => number | false | undefined);
  refetchOnWindowFocus?: boolean;
  refetchOnReconnect?: boolean;
  /** What the hook shows while the query has no data yet: `keepPreviousData`. */
  placeholderData?: (previousData: NoInfer<TData> | undefined) => NoInfer<TData> | undefined;
};

export type QueryOptions<
  TData = unknown,
  TKey extends QueryKey = QueryKey,
> = QueryBehaviour<TData> & {
  queryKey: TKey;
  queryFn: (context: { queryKey: TKey; signal: AbortSignal }) => Promise<TData>;
};

/** An infinite query's data: the pages fetched so far and the parameter each was asked with. */
export type InfiniteData<TPage, TParam = unknown> = { pages: TPage[]; pageParams: TParam[] };

export type InfiniteQueryOptions<
  TPage = unknown,
  TParam = unknown,
  TKey extends QueryKey = QueryKey,
> = QueryBehaviour<InfiniteData<TPage, TParam>> & {
  queryKey: TKey;
  queryFn: (context: { queryKey: TKey; signal: AbortSignal; pageParam: TParam }) => Promise<TPage>;
  initialPageParam: TParam;
  /** The next page's parameter, from the last page; null or undefined: there is none. */
  getNextPageParam: (
    lastPage: TPage,
    allPages: TPage[],
    lastPageParam: TParam,
    allPageParams: TParam[],
  ) => TParam | null | undefined;
};

/** Any query's options, as the cache keeps them. */
export type AnyQueryOptions = QueryBehaviour<unknown> & {
  queryKey: QueryKey;
  queryFn?: (context: { queryKey: QueryKey; signal: AbortSignal; pageParam?: unknown }) => unknown;
  initialPageParam?: unknown;
  getNextPageParam?: (
    lastPage: unknown,
    allPages: unknown[],
    lastPageParam: unknown,
    allPageParams: unknown[],
  ) => unknown;
};

export type QueryStatus = 'pending' | 'error' | 'success';

export type QueryState<TData = unknown> = {
  data: TData | undefined;
  error: Error | null;
  /** `pending` until the first answer, then the last fetch's outcome. */
  status: QueryStatus;
  isFetching: boolean;
  /** Fetching the next page of an infinite query (`fetchNextPage`). */
  isFetchingNextPage: boolean;
  /** Failed attempts of the current (or last) fetch. */
  failureCount: number;
  dataUpdatedAt: number;
  /** Invalidated since its last answer: stale whatever its `staleTime`. */
  isInvalidated: boolean;
};

/** A hook showing the query: its options and what to call when the state changes. */
export type QueryObserver = { options: AnyQueryOptions; onChange: () => void };

export type QueryFilters = {
  /** Every query whose key starts with this one. */
  queryKey?: QueryKey;
  predicate?: (query: Query) => boolean;
};

const defaultGcTimeMs = 5 * 60_000;
const retryDelayMaxMs = 30_000;

function isServer(): boolean {
  return typeof window === 'undefined';
}

function shouldRetry(retry: RetryValue | undefined, failureCount: number, error: Error): boolean {
  const rule = retry ?? (isServer() ? 0 : 3);
  if (typeof rule === 'function') return rule(failureCount, error);
  return rule === true || (typeof rule === 'number' && failureCount < rule);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

const noop = () => {};

/** One cached query: its state, the hooks that show it, and its fetch (one at a time). */
export class Query<TData = unknown> {
  readonly queryKey: QueryKey;
  readonly queryHash: string;
  options: AnyQueryOptions;
  state: QueryState<TData> = {
    data: undefined,
    error: null,
    status: 'pending',
    isFetching: false,
    isFetchingNextPage: false,
    failureCount: 0,
    dataUpdatedAt: 0,
    isInvalidated: false,
  };
  readonly observers = new Set<QueryObserver>();
  readonly #cache: QueryCache;
  #promise: Promise<TData> | undefined;
  #controller: AbortController | undefined;
  /** Counts fetches: a fetch that is no longer the latest leaves the state alone. */
  #fetchCount = 0;
  #gcTimeMs = 0;
  #gcTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(cache: QueryCache, options: AnyQueryOptions, queryHash: string) {
    this.#cache = cache;
    this.queryKey = options.queryKey;
    this.queryHash = queryHash;
    this.options = options;
    this.setOptions(options);
  }

  setOptions(options: AnyQueryOptions): void {
    this.options = options;
    this.#gcTimeMs = Math.max(this.#gcTimeMs, options.gcTime ?? defaultGcTimeMs);
  }

  setState(patch: Partial<QueryState<TData>>): void {
    this.state = { ...this.state, ...patch };
    for (const observer of this.observers) observer.onChange();
  }

  /** An answer, from a fetch or `setQueryData`: parts equal to the last answer keep their objects. */
  setData(data: TData): void {
    this.setState({
      data: replaceEqualDeep(this.state.data, data),
      error: null,
      status: 'success',
      dataUpdatedAt: Date.now(),
      isInvalidated: false,
    });
  }

  isStale(staleTime = 0): boolean {
    return (
      this.state.data === undefined ||
      this.state.isInvalidated ||
      Date.now() >= this.state.dataUpdatedAt + staleTime
    );
  }

  /** Shown by a hook that may fetch it. */
  isActive(): boolean {
    return [...this.observers].some((observer) => observer.options.enabled !== false);
  }

  subscribe(observer: QueryObserver): () => void {
    this.observers.add(observer);
    clearTimeout(this.#gcTimer);
    return () => {
      this.observers.delete(observer);
      this.scheduleGc();
    };
  }

  /** Forgets the query once nobody has shown it for its `gcTime` (never on the server). */
  scheduleGc(): void {
    clearTimeout(this.#gcTimer);
    if (isServer() || this.observers.size > 0 || !Number.isFinite(this.#gcTimeMs)) return;
    this.#gcTimer = setTimeout(() => {
      if (this.observers.size === 0 && !this.state.isFetching) this.#cache.remove(this);
      else this.scheduleGc();
    }, this.#gcTimeMs);
  }

  /** Stops the fetch under way (if any) and leaves the state as it is. */
  cancel(): void {
    if (!this.#promise) return;
    this.#fetchCount++;
    this.#controller?.abort();
    this.#promise = undefined;
    this.setState({ isFetching: false, isFetchingNextPage: false });
  }

  /**
   * Fetches the query, or joins the fetch under way. `cancelRefetch`: a fetch under way of
   * a query that has data is dropped for a new one (an invalidation wants an answer from
   * after it). `nextPage`: an infinite query's next page instead of all its pages again.
   */
  fetch(fetchOptions: { cancelRefetch?: boolean; nextPage?: boolean } = {}): Promise<TData> {
    if (this.#promise) {
      if (!(fetchOptions.cancelRefetch && this.state.data !== undefined)) return this.#promise;
      this.cancel();
    }
    const fetchId = ++this.#fetchCount;
    const controller = new AbortController();
    this.#controller = controller;
    const isCurrent = () => fetchId === this.#fetchCount;
    this.setState({
      isFetching: true,
      isFetchingNextPage: fetchOptions.nextPage === true,
      failureCount: 0,
      ...(this.state.data === undefined ? { status: 'pending' as const, error: null } : {}),
    });
    const attempt = () => this.#fetchData(controller.signal, fetchOptions.nextPage === true);
    const promise = (async (): Promise<TData> => {
      let failureCount = 0;
      for (;;) {
        try {
          const data = await attempt();
          if (!isCurrent()) return this.#promise ?? (this.state.data as TData);
          this.#promise = undefined;
          this.setData(data);
          this.setState({ isFetching: false, isFetchingNextPage: false, failureCount: 0 });
          return this.state.data as TData;
        } catch (thrown) {
          if (!isCurrent()) return this.#promise ?? (this.state.data as TData);
          const error = thrown instanceof Error ? thrown : new Error(String(thrown));
          if (shouldRetry(this.options.retry, failureCount, error)) {
            const delayMs = Math.min(1_000 * 2 ** failureCount, retryDelayMaxMs);
            failureCount++;
            this.setState({ failureCount });
            await sleep(delayMs);
            if (!isCurrent()) return this.#promise ?? (this.state.data as TData);
            continue;
          }
          this.#promise = undefined;
          this.setState({
            status: 'error',
            error,
            isFetching: false,
            isFetchingNextPage: false,
            failureCount: failureCount + 1,
          });
          this.#cache.config.onError?.(error, this as unknown as Query);
          throw error;
        }
      }
    })();
    this.#promise = promise;
    return promise;
  }

  /** One attempt: the query's answer, or an infinite query's pages. */
  async #fetchData(signal: AbortSignal, isNextPage: boolean): Promise<TData> {
    const { queryFn, getNextPageParam } = this.options;
    if (!queryFn) throw new Error(`no queryFn for the query ${this.queryHash}`);
    const queryKey = this.queryKey;
    if (!getNextPageParam) return (await queryFn({ queryKey, signal })) as TData;
    const old = this.state.data as InfiniteData<unknown> | undefined;
    const pages: unknown[] = isNextPage && old ? [...old.pages] : [];
    const pageParams: unknown[] = isNextPage && old ? [...old.pageParams] : [];
    // A refetch asks again for as many pages as are shown, each after the one before.
    const pageCount = isNextPage ? pages.length + 1 : Math.max(old?.pages.length ?? 0, 1);
    while (pages.length < pageCount) {
      const pageParam =
        pages.length === 0
          ? (old?.pageParams[0] ?? this.options.initialPageParam)
          : getNextPageParam(pages.at(-1), pages, pageParams.at(-1), pageParams);
      // No next page: the list is complete. The first page's parameter may be null.
      if ((pageParam === null || pageParam === undefined) && pages.length > 0) break;
      pages.push(await queryFn({ queryKey, signal, pageParam }));
      pageParams.push(pageParam);
    }
    return { pages, pageParams } as TData;
  }
}

/** The queries a client holds, by their key's hash, and its `onError` for every failed fetch. */
export class QueryCache {
  readonly config: { onError?: (error: Error, query: Query) => void };
  readonly #queries = new Map<string, Query>();

  constructor(config: { onError?: (error: Error, query: Query) => void } = {}) {
    this.config = config;
  }

  /** The query of the options' key, made if the cache has none, with these options. */
  build(options: AnyQueryOptions): Query {
    const queryHash = hashQueryKey(options.queryKey);
    let query = this.#queries.get(queryHash);
    if (query) {
      if (options.queryFn) query.setOptions(options);
    } else {
      query = new Query(this, options, queryHash);
      this.#queries.set(queryHash, query);
      query.scheduleGc();
    }
    return query;
  }

  get(queryKey: QueryKey): Query | undefined {
    return this.#queries.get(hashQueryKey(queryKey));
  }

  findAll(filters: QueryFilters = {}): Query[] {
    return [...this.#queries.values()].filter(
      (query) =>
        (!filters.queryKey || matchesQueryKey(query.queryKey, filters.queryKey)) &&
        (!filters.predicate || filters.predicate(query)),
    );
  }

  remove(query: Query): void {
    if (this.#queries.get(query.queryHash) !== query) return;
    this.#queries.delete(query.queryHash);
    query.cancel();
  }

  /** The window came back into view (`focus`) or the connection back (`online`). */
  refetchShown(reason: 'focus' | 'online'): void {
    for (const query of this.#queries.values()) {
      const wants = [...query.observers].some(
        ({ options }) =>
          options.enabled !== false &&
          (reason === 'focus' ? options.refetchOnWindowFocus : options.refetchOnReconnect) !==
            false &&
          query.isStale(options.staleTime),
      );
      if (wants) query.fetch().catch(noop);
    }
  }
}
