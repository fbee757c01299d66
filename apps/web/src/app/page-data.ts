import type { QueryClient } from '@tanstack/react-query';
import { healthQueryOptions } from '../lib/health.ts';
import { meQueryOptions } from '../lib/session.ts';
import { siteQueryOptions } from '../lib/site.ts';

// What a page shows on its first screen, fetched before it renders: by the browser while
// the page's code loads, and by the server when it renders the page (src/app-server.tsx).

/** Every page shows who is signed in, the institution's name and whether this is a sandbox. */
export async function prefetchEveryPageData(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.prefetchQuery(meQueryOptions),
    queryClient.prefetchQuery(siteQueryOptions),
    queryClient.prefetchQuery(healthQueryOptions),
  ]);
}

/** The dashboard's balance, transactions and chart, once the session says it is a customer's. */
export async function prefetchDashboardData(queryClient: QueryClient): Promise<void> {
  const me = await queryClient.ensureQueryData(meQueryOptions);
  if (me?.role !== 'customer') return;
  // The wallet's queries, and the money contracts they read answers with, load with the
  // dashboard (its page imports them too), not with the code every page starts from.
  const wallet = await import('../features/wallet/api.ts');
  await Promise.all([
    queryClient.prefetchQuery(wallet.walletQueryOptions),
    queryClient.prefetchInfiniteQuery(wallet.transactionsQueryOptions),
    queryClient.prefetchQuery(wallet.balanceHistoryQueryOptions),
  ]);
}

export type ServerRenderedPage = {
  /** Fetches what the page shows, so that its first render is complete. */
  prefetch: (queryClient: QueryClient) => Promise<void>;
};

/**
 * Pages the server renders for a signed-in customer (docs/decisions/011), by path: the
 * dashboard, which every customer opens first. Any other page is rendered by the app.
 */
export const serverRenderedPages: Readonly<Record<string, ServerRenderedPage>> = {
  '/dashboard': { prefetch: prefetchDashboardData },
};
