// The hooks as the server renders them (src/app-server.tsx): the page's queries are fetched
// before the render and shown from the cache, and the browser, which fetches the same
// answers (embedded in the page) before it hydrates, renders the same first.
import { createElement as h } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { infiniteQueryOptions, keepPreviousData, queryOptions } from './options.ts';
import { QueryClientProvider } from './provider.tsx';
import { QueryClient } from './query-client.ts';
import { useMutation } from './use-mutation.ts';
import { useInfiniteQuery, useQuery } from './use-query.ts';

const balanceOptions = (queryFn: () => Promise<{ balance: string }>) =>
  queryOptions({ queryKey: ['wallet'], queryFn, placeholderData: keepPreviousData });

function Balance({ queryFn }: { queryFn: () => Promise<{ balance: string }> }) {
  const wallet = useQuery(balanceOptions(queryFn));
  const pay = useMutation({ mutationFn: async () => 1 });
  return h(
    'p',
    null,
    `${wallet.status} fetching=${wallet.isFetching} loading=${wallet.isLoading} ` +
      `${wallet.data?.balance ?? '-'} mutation=${pay.status}`,
  );
}

const transactionsOptions = infiniteQueryOptions({
  queryKey: ['wallet', 'transactions'],
  queryFn: async ({ pageParam }) =>
    pageParam === null
      ? { items: ['a', 'b'], nextCursor: 'c2' as string | null }
      : { items: ['c'], nextCursor: null },
  initialPageParam: null as string | null,
  getNextPageParam: (page) => page.nextCursor,
});

function Transactions() {
  const list = useInfiniteQuery(transactionsOptions);
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  return h('p', null, `${items.join(',')} next=${list.hasNextPage}`);
}

function render(client: QueryClient, element: ReturnType<typeof h>) {
  return renderToString(h(QueryClientProvider, { client }, element));
}

describe('a query on the server', () => {
  it('shows the answer fetched before the render, without asking again', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: 30_000 } } });
    const queryFn = vi.fn(async () => ({ balance: '12.00' }));
    await client.prefetchQuery(balanceOptions(queryFn));
    expect(render(client, h(Balance, { queryFn }))).toBe(
      '<p>success fetching=false loading=false 12.00 mutation=idle</p>',
    );
    expect(queryFn).toHaveBeenCalledTimes(1);
    // Fresh, so the browser's hook, whose cache holds the same answer, does not fetch it on
    // mount either: no refetch flash after hydration.
    expect(client.queryCache.get(['wallet'])?.isStale(30_000)).toBe(false);
  });

  it('shows a query it has no answer for as pending and about to fetch, and fetches nothing', () => {
    const client = new QueryClient();
    const queryFn = vi.fn(async () => ({ balance: '12.00' }));
    expect(render(client, h(Balance, { queryFn }))).toBe(
      '<p>pending fetching=true loading=true - mutation=idle</p>',
    );
    expect(queryFn).not.toHaveBeenCalled();
  });

  it('shows a query whose fetch failed as pending, about to be fetched again', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const queryFn = vi.fn(async (): Promise<{ balance: string }> => {
      throw new Error('down');
    });
    await client.prefetchQuery(balanceOptions(queryFn));
    expect(client.queryCache.get(['wallet'])?.state.status).toBe('error');
    expect(render(client, h(Balance, { queryFn }))).toBe(
      '<p>pending fetching=true loading=true - mutation=idle</p>',
    );
  });

  it('shows an infinite query’s pages and whether there is a next one', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: 30_000 } } });
    await client.prefetchInfiniteQuery(transactionsOptions);
    expect(render(client, h(Transactions))).toBe('<p>a,b next=true</p>');
    await client.queryCache.get(transactionsOptions.queryKey)?.fetch({ nextPage: true });
    expect(render(client, h(Transactions))).toBe('<p>a,b,c next=false</p>');
  });
});
