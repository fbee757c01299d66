import { MutationCache } from './mutation.ts';
import {
  type AnyQueryOptions,
  type InfiniteQueryOptions,
  type QueryBehaviour,
  QueryCache,
  type QueryFilters,
  type QueryOptions,
  type RetryValue,
} from './query-cache.ts';
import type { DataOf, QueryKey } from './query-key.ts';

type DefaultOptions = {
  queries?: QueryBehaviour<unknown>;
  mutations?: { retry?: RetryValue };
};

type Updater<TData> = TData | undefined | ((previous: TData | undefined) => TData | undefined);

const noop = () => {};

/**
 * The app's cache of server answers (docs/decisions/033): TanStack Query's names and
 * behaviour for the part of it the app uses.
 */
export class QueryClient {
  readonly queryCache: QueryCache;
  readonly mutationCache: MutationCache;
  readonly defaultOptions: DefaultOptions;
  #unmount: (() => void) | undefined;
  #mountCount = 0;

  constructor(
    config: {
      queryCache?: QueryCache;
      mutationCache?: MutationCache;
      defaultOptions?: DefaultOptions;
    } = {},
  ) {
    this.queryCache = config.queryCache ?? new QueryCache();
    this.mutationCache = config.mutationCache ?? new MutationCache();
    this.defaultOptions = config.defaultOptions ?? {};
  }

  /** The options with the client's defaults under them. */
  defaultQueryOptions<TOptions extends { queryKey: QueryKey }>(options: TOptions): TOptions {
    return { ...this.defaultOptions.queries, ...options };
  }

  /** Refetches the shown, stale queries when the window comes back into view or online. */
  mount(): () => void {
    if (this.#mountCount++ === 0) {
      const onVisible = () => {
        if (document.visibilityState !== 'hidden') this.queryCache.refetchShown('focus');
      };
      const onOnline = () => this.queryCache.refetchShown('online');
      document.addEventListener('visibilitychange', onVisible);
      window.addEventListener('online', onOnline);
      this.#unmount = () => {
        document.removeEventListener('visibilitychange', onVisible);
        window.removeEventListener('online', onOnline);
      };
    }
    return () => {
      if (--this.#mountCount === 0) this.#unmount?.();
    };
  }

  getQueryData<TKey extends QueryKey>(queryKey: TKey): DataOf<TKey> | undefined {
    return this.queryCache.get(queryKey)?.state.data as DataOf<TKey> | undefined;
  }

  /** Sets a query's data (an updater gets the current data); undefined changes nothing. */
  setQueryData<TKey extends QueryKey>(
    queryKey: TKey,
    updater: Updater<DataOf<TKey>>,
  ): DataOf<TKey> | undefined {
    const previous = this.getQueryData(queryKey);
    const data =
      typeof updater === 'function'
        ? (updater as (previous: DataOf<TKey> | undefined) => DataOf<TKey> | undefined)(previous)
        : updater;
    if (data === undefined) return undefined;
    const query = this.queryCache.build(this.defaultQueryOptions({ queryKey }));
    query.setData(data);
    return query.state.data as DataOf<TKey>;
  }

  /**
   * Marks the queries stale and refetches those a hook shows (a fetch under way is
   * dropped for a new one); the others refetch when next shown.
   */
  async invalidateQueries(filters: QueryFilters = {}): Promise<void> {
    const queries = this.queryCache.findAll(filters);
    for (const query of queries) query.setState({ isInvalidated: true });
    await Promise.all(
      queries
        .filter((query) => query.isActive())
        .map((query) => query.fetch({ cancelRefetch: true }).catch(noop)),
    );
  }

  removeQueries(filters: QueryFilters = {}): void {
    for (const query of this.queryCache.findAll(filters)) this.queryCache.remove(query);
  }

  /** The query's data: the cached answer while fresh (`staleTime`), else a fetch's. */
  fetchQuery<TData, TKey extends QueryKey>(options: QueryOptions<TData, TKey>): Promise<TData> {
    return this.#fetch(options as unknown as AnyQueryOptions) as Promise<TData>;
  }

  /** The cached data however old, or a fetch's. */
  async ensureQueryData<TData, TKey extends QueryKey>(
    options: QueryOptions<TData, TKey>,
  ): Promise<TData> {
    const data = this.queryCache.get(options.queryKey)?.state.data;
    return data === undefined ? this.fetchQuery(options) : (data as TData);
  }

  /** Fetches the query unless its answer is fresh; never throws. */
  async prefetchQuery<TData, TKey extends QueryKey>(
    options: QueryOptions<TData, TKey>,
  ): Promise<void> {
    await this.#fetch(options as unknown as AnyQueryOptions).catch(noop);
  }

  /** Fetches the infinite query's first page (or its pages) unless they are fresh. */
  async prefetchInfiniteQuery<TPage, TParam, TKey extends QueryKey>(
    options: InfiniteQueryOptions<TPage, TParam, TKey>,
  ): Promise<void> {
    await this.#fetch(options as unknown as AnyQueryOptions).catch(noop);
  }

  #fetch(options: AnyQueryOptions): Promise<unknown> {
    const defaulted = this.defaultQueryOptions(options);
    const query = this.queryCache.build(defaulted);
    return query.isStale(defaulted.staleTime) ? query.fetch() : Promise.resolve(query.state.data);
  }
}
