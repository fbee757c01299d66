import type { QueryClient } from '@tanstack/react-query';
import { matchPath } from 'react-router';
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

/** The dashboard's balance, transactions, chart and spending, once the session says it is a customer's. */
export async function prefetchDashboardData(queryClient: QueryClient): Promise<void> {
  const me = await queryClient.ensureQueryData(meQueryOptions);
  // A customer with new terms to accept is sent to them: the API would refuse the wallet.
  if (me?.role !== 'customer' || me.mustAcceptTerms) return;
  // The wallet's queries, and the money contracts they read answers with, load with the
  // dashboard (its page imports them too), not with the code every page starts from.
  const wallet = await import('../features/wallet/api.ts');
  await Promise.all([
    queryClient.prefetchQuery(wallet.walletQueryOptions),
    queryClient.prefetchInfiniteQuery(wallet.transactionsQueryOptions),
    queryClient.prefetchQuery(wallet.balanceHistoryQueryOptions),
    queryClient.prefetchQuery(wallet.spendingQueryOptions),
  ]);
}

/** Quick Pay's allowances and the recent transfers beside it. */
async function prefetchTransferData(queryClient: QueryClient): Promise<void> {
  const [transfers, allowances] = await Promise.all([
    import('../features/transfers/api.ts'),
    import('../lib/allowances.ts'),
  ]);
  await Promise.all([
    queryClient.prefetchQuery(allowances.allowancesQueryOptions),
    queryClient.prefetchInfiniteQuery(transfers.transfersQueryOptions),
  ]);
}

/** This month's statement, the period the page opens on (whole days in the customer's zone). */
async function prefetchStatementsData(queryClient: QueryClient): Promise<void> {
  const me = await queryClient.ensureQueryData(meQueryOptions);
  if (me?.role !== 'customer') return;
  const [statements, { todayIn }] = await Promise.all([
    import('../features/statements/api.ts'),
    import('@coffer/contracts/time-zones'),
  ]);
  await queryClient.prefetchQuery(
    statements.statementQueryOptions({ month: todayIn(me.timeZone).slice(0, 7) }),
  );
}

/** The profile, the signed-in sessions, the email setting and the account's recent activity. */
async function prefetchProfileData(queryClient: QueryClient): Promise<void> {
  const [profile, notifications] = await Promise.all([
    import('../features/profile/api.ts'),
    import('../features/notifications/api.ts'),
  ]);
  await Promise.all([
    queryClient.prefetchQuery(profile.profileQueryOptions),
    queryClient.prefetchQuery(profile.sessionsQueryOptions),
    queryClient.prefetchQuery(notifications.emailSettingQueryOptions),
    queryClient.prefetchInfiniteQuery(profile.activityQueryOptions),
  ]);
}

/** The queues' counts: the staff side menu's badges, and the tiles above the customer list. */
async function prefetchQueueCounts(queryClient: QueryClient): Promise<void> {
  const staffHome = await import('../features/staff-home/api.ts');
  await queryClient.prefetchQuery(staffHome.queueCountsQueryOptions);
}

/** The queues' counts and the first page of users, for the search in the address if any. */
async function prefetchCustomerListData(queryClient: QueryClient, url: URL): Promise<void> {
  const admin = await import('../features/admin/api.ts');
  const search = (url.searchParams.get('search') ?? '').trim();
  await Promise.all([
    prefetchQueueCounts(queryClient),
    queryClient.prefetchInfiniteQuery(admin.customerListQueryOptions(search)),
  ]);
}

/** The queues' counts, the customer's header (details, pending requests) and first tab. */
async function prefetchCustomerDetailData(
  queryClient: QueryClient,
  _url: URL,
  params: PageParams,
): Promise<void> {
  const { userId } = params;
  if (userId === undefined) return;
  const [backOffice, admin, deposits] = await Promise.all([
    import('../lib/back-office.ts'),
    import('../features/admin/api.ts'),
    import('../features/deposits/api.ts'),
  ]);
  await Promise.all([
    prefetchQueueCounts(queryClient),
    queryClient.prefetchQuery(backOffice.customerDetailQueryOptions(userId)),
    queryClient.prefetchInfiniteQuery(admin.customerTransactionsQueryOptions(userId)),
    queryClient.prefetchQuery(deposits.customerMoneyRequestsQueryOptions(userId)),
  ]);
}

/** The operator's terms, which sign-up shows to accept. */
async function prefetchSignupData(queryClient: QueryClient): Promise<void> {
  const terms = await import('../features/terms/api.ts');
  await queryClient.prefetchQuery(terms.termsQueryOptions);
}

/** Sign-in and forgot-password show nothing beyond what every page asks. */
async function prefetchNothingMore(): Promise<void> {}

type PageParams = Readonly<Record<string, string | undefined>>;

export type ServerRenderedPage = {
  /**
   * Whose page it is: anyone else gets the app's own page. A visitor's page (sign-up,
   * sign-in) is a form to type into before the app's code arrives (docs/decisions/056): it
   * is not made inert, is always hydrated (it shows no dates), and keeps what was typed.
   */
  audience: 'customer' | 'staff' | 'visitor';
  /** Fetches what the page's first screen shows, so that its first render is complete. */
  prefetch: (queryClient: QueryClient, url: URL, params: PageParams) => Promise<void>;
};

/**
 * Pages the server renders (docs/decisions/011, 027, 056), by route pattern: the pages
 * people open most, whose first screen would otherwise wait for the app's code, and the
 * forms a new customer meets first. Any other page is rendered by the app.
 */
export const serverRenderedPages: Readonly<Record<string, ServerRenderedPage>> = {
  '/signup': { audience: 'visitor', prefetch: prefetchSignupData },
  '/signin': { audience: 'visitor', prefetch: prefetchNothingMore },
  '/forgot-password': { audience: 'visitor', prefetch: prefetchNothingMore },
  '/dashboard': { audience: 'customer', prefetch: prefetchDashboardData },
  '/transfer': { audience: 'customer', prefetch: prefetchTransferData },
  '/statements': { audience: 'customer', prefetch: prefetchStatementsData },
  '/profile': { audience: 'customer', prefetch: prefetchProfileData },
  '/admin': { audience: 'staff', prefetch: prefetchCustomerListData },
  '/admin/users/:userId': { audience: 'staff', prefetch: prefetchCustomerDetailData },
};

/** The server-rendered page a path is, with the route's parameters, if it is one. */
export function serverRenderedPageAt(
  pathname: string,
): { page: ServerRenderedPage; params: PageParams } | null {
  for (const [pattern, page] of Object.entries(serverRenderedPages)) {
    const match = matchPath(pattern, pathname);
    if (match) return { page, params: match.params };
  }
  return null;
}
