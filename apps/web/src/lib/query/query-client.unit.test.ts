import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { infiniteQueryOptions, queryOptions } from './options.ts';
import { QueryCache, type QueryObserver } from './query-cache.ts';
import { QueryClient } from './query-client.ts';
import type { QueryKey } from './query-key.ts';

class HttpError extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

/** The app's defaults (app/query-client.ts), with a rule that retries only 5xx. */
function newClient(onError?: (error: Error) => void) {
  return new QueryClient({
    queryCache: new QueryCache(onError ? { onError } : {}),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        retry: (failureCount, error) =>
          failureCount < 2 && (!(error instanceof HttpError) || error.status >= 500),
      },
    },
  });
}

/** A hook showing the query: what `useQuery` subscribes. */
function observe(client: QueryClient, queryKey: QueryKey, options: { enabled?: boolean } = {}) {
  const onChange = vi.fn();
  const query = client.queryCache.build(client.defaultQueryOptions({ queryKey }));
  const observer: QueryObserver = { options: { queryKey, ...options }, onChange };
  const unsubscribe = query.subscribe(observer);
  return { query, onChange, unsubscribe };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('fetching', () => {
  it('asks once for queries asked for together, and answers both', async () => {
    const client = newClient();
    const answer = deferred<number>();
    const queryFn = vi.fn(() => answer.promise);
    const options = queryOptions({ queryKey: ['wallet'], queryFn });
    const both = Promise.all([client.fetchQuery(options), client.fetchQuery(options)]);
    answer.resolve(42);
    expect(await both).toEqual([42, 42]);
    expect(queryFn).toHaveBeenCalledTimes(1);
    expect(client.getQueryData(options.queryKey)).toBe(42);
  });

  it('keeps an answer fresh for its staleTime, then asks again', async () => {
    const client = newClient();
    let count = 0;
    const queryFn = vi.fn(async () => ++count);
    const options = queryOptions({ queryKey: ['site'], queryFn, staleTime: 60_000 });
    await client.prefetchQuery(options);
    await vi.advanceTimersByTimeAsync(59_000);
    await client.prefetchQuery(options);
    expect(queryFn).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await client.fetchQuery(options)).toBe(2);
    // The client's default (30 s) where the options say nothing.
    const plain = queryOptions({ queryKey: ['health'], queryFn });
    await client.prefetchQuery(plain);
    await vi.advanceTimersByTimeAsync(29_000);
    await client.prefetchQuery(plain);
    expect(queryFn).toHaveBeenCalledTimes(3);
  });

  it('gives ensureQueryData the cached answer however old', async () => {
    const client = newClient();
    const queryFn = vi.fn(async () => 'me');
    const options = queryOptions({ queryKey: ['auth', 'me'], queryFn });
    expect(await client.ensureQueryData(options)).toBe('me');
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(await client.ensureQueryData(options)).toBe('me');
    expect(queryFn).toHaveBeenCalledTimes(1);
  });

  it('retries a failure the rule allows twice, one then two seconds apart, then reports it once', async () => {
    const onError = vi.fn();
    const client = newClient(onError);
    const queryFn = vi.fn(async (): Promise<string> => {
      throw new HttpError(503);
    });
    const { query } = observe(client, ['health']);
    const fetched = client.fetchQuery(queryOptions({ queryKey: ['health'], queryFn }));
    const outcome = fetched.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(0);
    expect(queryFn).toHaveBeenCalledTimes(1);
    expect(query.state).toMatchObject({ status: 'pending', isFetching: true, failureCount: 1 });
    await vi.advanceTimersByTimeAsync(999);
    expect(queryFn).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(queryFn).toHaveBeenCalledTimes(2);
    expect(query.state.failureCount).toBe(2);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(queryFn).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(queryFn).toHaveBeenCalledTimes(3);
    expect(await outcome).toBeInstanceOf(HttpError);
    expect(query.state).toMatchObject({ status: 'error', isFetching: false, failureCount: 3 });
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError.mock.calls[0]?.[0]).toBeInstanceOf(HttpError);
  });

  it('does not retry what the rule refuses, and answers after a retry that succeeds', async () => {
    const client = newClient();
    const refused = vi.fn(async (): Promise<string> => {
      throw new HttpError(404);
    });
    await client.prefetchQuery(queryOptions({ queryKey: ['dispute', 'x'], queryFn: refused }));
    expect(refused).toHaveBeenCalledTimes(1);
    expect(client.queryCache.get(['dispute', 'x'])?.state.status).toBe('error');

    let attempts = 0;
    const flaky = vi.fn(async () => {
      attempts++;
      if (attempts === 1) throw new Error('connection dropped');
      return 'ok';
    });
    const answer = client.fetchQuery(queryOptions({ queryKey: ['flaky'], queryFn: flaky }));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await answer).toBe('ok');
    expect(client.queryCache.get(['flaky'])?.state).toMatchObject({
      status: 'success',
      failureCount: 0,
      error: null,
    });
  });

  it('lets a query’s own retry: false win over the client’s rule', async () => {
    const client = newClient();
    const queryFn = vi.fn(async (): Promise<string> => {
      throw new Error('down');
    });
    await expect(
      client.fetchQuery(queryOptions({ queryKey: ['preview'], queryFn, retry: false })),
    ).rejects.toThrow('down');
    expect(queryFn).toHaveBeenCalledTimes(1);
  });
});

describe('invalidation', () => {
  it('refetches the shown queries under a key prefix and marks the others stale', async () => {
    const client = newClient();
    const fetched: string[] = [];
    const options = (queryKey: string[]) =>
      queryOptions({
        queryKey,
        queryFn: async () => {
          fetched.push(queryKey.join('/'));
          return queryKey.join('/');
        },
      });
    const keys = [['wallet'], ['wallet', 'transactions'], ['wallet', 'history'], ['transfers']];
    for (const key of keys) await client.prefetchQuery(options(key));
    fetched.length = 0;
    observe(client, ['wallet']);
    observe(client, ['wallet', 'transactions']);
    observe(client, ['transfers']);
    await client.invalidateQueries({ queryKey: ['wallet'] });
    expect(fetched.sort()).toEqual(['wallet', 'wallet/transactions']);
    // Not shown: stale now, fetched when next asked for although within its staleTime.
    expect(client.queryCache.get(['wallet', 'history'])?.isStale(30_000)).toBe(true);
    expect(client.queryCache.get(['transfers'])?.isStale(30_000)).toBe(false);
    await client.prefetchQuery(options(['wallet', 'history']));
    expect(fetched).toContain('wallet/history');
  });

  it('does not fetch a query whose hook is disabled', async () => {
    const client = newClient();
    const queryFn = vi.fn(async () => 1);
    await client.prefetchQuery(queryOptions({ queryKey: ['auth', 'verify-email', ''], queryFn }));
    observe(client, ['auth', 'verify-email', ''], { enabled: false });
    await client.invalidateQueries({ queryKey: ['auth'] });
    expect(queryFn).toHaveBeenCalledTimes(1);
  });

  it('drops a fetch under way for a new one, so the answer is from after the change', async () => {
    const client = newClient();
    const answers = [deferred<string>(), deferred<string>(), deferred<string>()];
    const signals: AbortSignal[] = [];
    let call = 0;
    const options = queryOptions({
      queryKey: ['wallet'],
      queryFn: ({ signal }) => {
        signals.push(signal);
        return (answers[call++] as (typeof answers)[number]).promise;
      },
    });
    const first = client.fetchQuery(options);
    answers[0]?.resolve('before');
    await first;
    const { query } = observe(client, ['wallet']);
    await vi.advanceTimersByTimeAsync(30_000);
    const refetch = query.fetch();
    const invalidated = client.invalidateQueries({ queryKey: ['wallet'] });
    expect(signals[1]?.aborted).toBe(true);
    answers[1]?.resolve('stale answer');
    answers[2]?.resolve('after');
    await invalidated;
    expect(await refetch).toBe('after');
    expect(client.getQueryData(options.queryKey)).toBe('after');
  });
});

describe('setQueryData', () => {
  it('updates the data and tells the hooks that show it', () => {
    const client = newClient();
    const { onChange, query } = observe(client, ['auth', 'me']);
    client.setQueryData(['auth', 'me'], { id: 'u1', hasTotp: false });
    expect(onChange).toHaveBeenCalled();
    expect(query.state).toMatchObject({ status: 'success', data: { id: 'u1', hasTotp: false } });
    const updater = vi.fn((me: { id: string; hasTotp: boolean } | undefined) =>
      me ? { ...me, hasTotp: true } : me,
    );
    const typed = queryOptions({
      queryKey: ['auth', 'me'],
      queryFn: async () => ({ id: 'u1', hasTotp: false }),
    });
    client.setQueryData(typed.queryKey, updater);
    expect(updater).toHaveBeenCalledWith({ id: 'u1', hasTotp: false });
    expect(client.getQueryData(typed.queryKey)).toEqual({ id: 'u1', hasTotp: true });
  });

  it('changes nothing when the updater gives undefined, and keeps equal data’s objects', () => {
    const client = newClient();
    const { onChange } = observe(client, ['profile']);
    expect(client.setQueryData(['profile'], () => undefined)).toBeUndefined();
    expect(onChange).not.toHaveBeenCalled();
    const profile = { name: 'Ann', address: { city: 'Oslo' } };
    client.setQueryData(['profile'], profile);
    client.setQueryData(['profile'], structuredClone(profile));
    expect(client.getQueryData(['profile'])).toBe(profile);
  });

  it('can store null (a visitor) and remove queries by predicate', () => {
    const client = newClient();
    client.setQueryData(['auth', 'me'], null);
    client.setQueryData(['wallet'], 1);
    client.setQueryData(['site'], 2);
    expect(client.getQueryData(['auth', 'me'])).toBeNull();
    client.removeQueries({ predicate: (query) => query.queryKey[0] === 'wallet' });
    expect(client.getQueryData(['wallet'])).toBeUndefined();
    expect(client.getQueryData(['site'])).toBe(2);
  });
});

describe('infinite queries', () => {
  type Page = { items: number[]; nextCursor: string | null };
  const pagesOf: Record<string, Page> = {
    start: { items: [1, 2], nextCursor: 'c2' },
    c2: { items: [3, 4], nextCursor: 'c3' },
    c3: { items: [5], nextCursor: null },
  };
  function listOptions(queryFn: (cursor: string | null) => Promise<Page>) {
    return infiniteQueryOptions({
      queryKey: ['wallet', 'transactions'],
      queryFn: ({ pageParam }) => queryFn(pageParam),
      initialPageParam: null as string | null,
      getNextPageParam: (page) => page.nextCursor,
    });
  }

  it('fetches the first page, then each next page from the last one’s cursor', async () => {
    const client = newClient();
    const queryFn = vi.fn(async (cursor: string | null) => pagesOf[cursor ?? 'start'] as Page);
    const options = listOptions(queryFn);
    await client.prefetchInfiniteQuery(options);
    expect(client.getQueryData(options.queryKey)).toEqual({
      pages: [pagesOf.start],
      pageParams: [null],
    });
    const query = client.queryCache.get(options.queryKey);
    const next = query?.fetch({ nextPage: true });
    expect(query?.state).toMatchObject({ isFetching: true, isFetchingNextPage: true });
    await next;
    await query?.fetch({ nextPage: true });
    expect(client.getQueryData(options.queryKey)?.pages.flatMap((page) => page.items)).toEqual([
      1, 2, 3, 4, 5,
    ]);
    expect(client.getQueryData(options.queryKey)?.pageParams).toEqual([null, 'c2', 'c3']);
    expect(queryFn.mock.calls.map(([cursor]) => cursor)).toEqual([null, 'c2', 'c3']);
    expect(query?.state.isFetchingNextPage).toBe(false);
  });

  it('refetches every page it shows, in order, on invalidation', async () => {
    const client = newClient();
    const queryFn = vi.fn(async (cursor: string | null) => pagesOf[cursor ?? 'start'] as Page);
    const options = listOptions(queryFn);
    await client.prefetchInfiniteQuery(options);
    const { query } = observe(client, options.queryKey);
    await query.fetch({ nextPage: true });
    queryFn.mockClear();
    await client.invalidateQueries({ queryKey: ['wallet'] });
    expect(queryFn.mock.calls.map(([cursor]) => cursor)).toEqual([null, 'c2']);
    expect(client.getQueryData(options.queryKey)?.pages).toHaveLength(2);
  });
});

describe('garbage collection', () => {
  it('forgets a query nobody has shown for its gcTime, and keeps a shown one', async () => {
    vi.stubGlobal('window', {});
    const client = newClient();
    const queryFn = async () => 1;
    await client.prefetchQuery(queryOptions({ queryKey: ['old'], queryFn }));
    await client.prefetchQuery(queryOptions({ queryKey: ['shown'], queryFn }));
    await client.prefetchQuery(queryOptions({ queryKey: ['kept'], queryFn, gcTime: Infinity }));
    const { unsubscribe } = observe(client, ['shown']);
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(client.getQueryData(['old'])).toBeUndefined();
    expect(client.getQueryData(['shown'])).toBe(1);
    expect(client.getQueryData(['kept'])).toBe(1);
    unsubscribe();
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(client.getQueryData(['shown'])).toBeUndefined();
  });

  it('keeps every query on the server, where a client lives for one page', async () => {
    const client = newClient();
    await client.prefetchQuery(queryOptions({ queryKey: ['old'], queryFn: async () => 1 }));
    await vi.advanceTimersByTimeAsync(60 * 60_000);
    expect(client.getQueryData(['old'])).toBe(1);
  });
});
