import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, type RouteObject, useParams } from 'react-router';
import { z } from 'zod/mini';
import { NotFoundContent } from '../components/not-found-content.tsx';
import { PageLoading } from '../components/page-loading.tsx';
import { loadPageWords } from '../lib/i18n.ts';
import { prefetchDashboardData } from './page-data.ts';
import { RootLayout } from './root-layout.tsx';
import { RouteErrorPage } from './route-error-page.tsx';
import {
  CustomerPagesOnly,
  NotFoundInOwnFrame,
  RequireSignedIn,
  RequireVisitor,
  StaffPagesOnly,
} from './route-guards.tsx';

// Paths are matched case-insensitively (React Router's default; PRODUCT.md section 2
// requires it), then RootLayout rewrites /DashBoard to /dashboard. Aliases whose spelling
// differs by more than case redirect to the canonical path; an alias joins this list in the
// same change as the page it points to.
const aliases: readonly { from: string; to: string }[] = [
  { from: 'aboutus', to: '/about' },
  { from: 'forget-password', to: '/forgot-password' },
];

/** `/admin/:userId` is the short form of `/admin/users/:userId`; anything else is a 404. */
function AdminUserAlias() {
  const { userId = '' } = useParams();
  return z.uuid().safeParse(userId).success ? (
    <Navigate to={`/admin/users/${userId}`} replace />
  ) : (
    <NotFoundContent isInsideShell />
  );
}

/**
 * The modules routes load on their first visit, each in a chunk of its own: a visitor on
 * the landing page downloads neither the back office nor the charts. Keyed by path from
 * this file, as `lazyPage` names them.
 */
const routeModules = import.meta.glob<Record<string, ComponentType>>([
  '../features/*/pages/*.tsx',
  './public-layout.tsx',
  './shell/shell-layout.tsx',
]);

/** What a route with code of its own carries: its module as the build's manifest names it. */
export type PageHandle = { pageModule: string };

/** `../features/x.tsx` (from this folder) as the build's manifest names it: `src/features/x.tsx`. */
function manifestKeyOf(modulePath: string): string {
  return modulePath.startsWith('../')
    ? `src/${modulePath.slice(3)}`
    : `src/app/${modulePath.slice(2)}`;
}

/**
 * A route whose component `name` is exported by the module at `modulePath` (from this
 * folder), loaded on its first visit. Its handle names the module, so the server knows
 * which code and styles a rendered page needs, and the build what each page weighs
 * (page-budgets.ts).
 */
function lazyPage(modulePath: string, name: string): Pick<RouteObject, 'lazy' | 'handle'> {
  const load = routeModules[modulePath];
  if (!load) throw new Error(`router.tsx: ${modulePath} is not among the route modules`);
  const handle: PageHandle = { pageModule: manifestKeyOf(modulePath) };
  return {
    handle,
    lazy: async () => {
      // The page's words load with its code, in parallel (lib/i18n.ts).
      const [module] = await Promise.all([load(), loadPageWords(handle.pageModule)]);
      const Component = module[name];
      if (!Component) throw new Error(`${modulePath} does not export ${name}`);
      return { Component };
    },
  };
}

/**
 * Starts the dashboard's queries as soon as the route matches, while the page's code is
 * still loading, instead of once it has rendered.
 */
function prefetchDashboard(queryClient: QueryClient) {
  return () => {
    void prefetchDashboardData(queryClient);
    return null;
  };
}

/** The frame of signed-in pages: top bar and the side menu of the person's role. */
const shellLayout = lazyPage('./shell/shell-layout.tsx', 'ShellLayout');

export const appRoutes = (queryClient: QueryClient): RouteObject[] => [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    // Shown while the first page's own code loads.
    HydrateFallback: PageLoading,
    children: [
      {
        // The public frame (its header's menu brings Floating UI) loads with the first
        // public page: a signed-in page never needs it.
        ...lazyPage('./public-layout.tsx', 'PublicLayout'),
        children: [
          {
            // The server renders this page for a first visit (docs/decisions/010); the app
            // shows it when someone comes back to it from another page.
            index: true,
            ...lazyPage('../features/landing/pages/landing-page.tsx', 'LandingPage'),
          },
          {
            path: 'about',
            ...lazyPage('../features/about/pages/about-page.tsx', 'AboutPage'),
          },
          {
            path: 'verify-email',
            ...lazyPage('../features/auth/pages/verify-email-page.tsx', 'VerifyEmailPage'),
          },
          {
            path: 'reset-password',
            ...lazyPage('../features/auth/pages/reset-password-page.tsx', 'ResetPasswordPage'),
          },
          {
            path: 'dev/mail',
            ...lazyPage('../features/dev-mail/pages/dev-mail-page.tsx', 'DevMailPage'),
          },
          {
            element: <RequireVisitor />,
            children: [
              {
                path: 'signup',
                ...lazyPage('../features/auth/pages/signup-page.tsx', 'SignupPage'),
              },
              {
                path: 'signin',
                ...lazyPage('../features/auth/pages/signin-page.tsx', 'SigninPage'),
              },
              {
                path: 'forgot-password',
                ...lazyPage(
                  '../features/auth/pages/forgot-password-page.tsx',
                  'ForgotPasswordPage',
                ),
              },
            ],
          },
          ...aliases.map((alias) => ({
            path: alias.from,
            element: <Navigate to={alias.to} replace />,
          })),
        ],
      },
      {
        element: <RequireSignedIn />,
        children: [
          {
            // Outside the shell, whose menus ask the API what it answers only afterwards.
            path: 'change-password',
            ...lazyPage(
              '../features/profile/pages/required-password-change-page.tsx',
              'RequiredPasswordChangePage',
            ),
          },
          {
            // Outside the shell too: the API answers nothing else until the terms are accepted.
            path: 'accept-terms',
            ...lazyPage('../features/terms/pages/accept-terms-page.tsx', 'AcceptTermsPage'),
          },
          {
            ...shellLayout,
            children: [
              {
                element: <CustomerPagesOnly />,
                children: [
                  {
                    path: 'dashboard',
                    loader: prefetchDashboard(queryClient),
                    ...lazyPage('../features/wallet/pages/dashboard-page.tsx', 'DashboardPage'),
                  },
                  {
                    path: 'dashboard/deposit',
                    ...lazyPage('../features/wallet/pages/add-money-page.tsx', 'AddMoneyPage'),
                  },
                  {
                    path: 'wallets',
                    ...lazyPage('../features/wallet/pages/wallets-page.tsx', 'WalletsPage'),
                  },
                  {
                    path: 'exchange',
                    ...lazyPage('../features/wallet/pages/exchange-page.tsx', 'ExchangePage'),
                  },
                  {
                    path: 'transfer',
                    ...lazyPage('../features/transfers/pages/transfer-page.tsx', 'TransferPage'),
                  },
                  { path: 'withdrawal', element: <Navigate to="/transfer?tab=withdraw" replace /> },
                  {
                    path: 'pay-bills',
                    ...lazyPage('../features/bills/pages/pay-bills-page.tsx', 'PayBillsPage'),
                  },
                  {
                    path: 'payees',
                    ...lazyPage('../features/payees/pages/payees-page.tsx', 'PayeesPage'),
                  },
                  {
                    path: 'scheduled-payments',
                    ...lazyPage(
                      '../features/scheduled-payments/pages/scheduled-payments-page.tsx',
                      'ScheduledPaymentsPage',
                    ),
                  },
                  {
                    path: 'bulk-payments',
                    ...lazyPage(
                      '../features/bulk-payments/pages/bulk-payments-page.tsx',
                      'BulkPaymentsPage',
                    ),
                  },
                  {
                    path: 'cards',
                    ...lazyPage('../features/cards/pages/cards-page.tsx', 'CardsPage'),
                  },
                  {
                    path: 'loan',
                    ...lazyPage('../features/loans/pages/loan-page.tsx', 'LoanPage'),
                  },
                  {
                    path: 'kyc',
                    ...lazyPage('../features/kyc/pages/kyc-page.tsx', 'KycPage'),
                  },
                  {
                    path: 'dispute',
                    ...lazyPage('../features/disputes/pages/dispute-page.tsx', 'DisputePage'),
                  },
                  {
                    path: 'support',
                    ...lazyPage('../features/support/pages/support-page.tsx', 'SupportPage'),
                  },
                  {
                    path: 'close-account',
                    ...lazyPage(
                      '../features/account-closure/pages/account-closure-page.tsx',
                      'AccountClosurePage',
                    ),
                  },
                  {
                    path: 'statements',
                    ...lazyPage(
                      '../features/statements/pages/statements-page.tsx',
                      'StatementsPage',
                    ),
                  },
                  {
                    path: 'profile/export',
                    ...lazyPage(
                      '../features/data-export/pages/data-export-page.tsx',
                      'DataExportPage',
                    ),
                  },
                ],
              },
              {
                path: 'notifications',
                ...lazyPage(
                  '../features/notifications/pages/notifications-page.tsx',
                  'NotificationsPage',
                ),
              },
              {
                path: 'profile',
                ...lazyPage('../features/profile/pages/profile-page.tsx', 'ProfilePage'),
              },
              {
                // The back office. The deposits, payouts, KYC, cards, disputes and support
                // queues exist so far; loans comes with its feature and is a 404 until then.
                path: 'admin',
                element: <StaffPagesOnly />,
                children: [
                  {
                    index: true,
                    ...lazyPage(
                      '../features/admin/pages/customer-list-page.tsx',
                      'CustomerListPage',
                    ),
                  },
                  { path: 'users', element: <Navigate to="/admin" replace /> },
                  {
                    path: 'users/:userId',
                    ...lazyPage(
                      '../features/admin/pages/customer-detail-page.tsx',
                      'CustomerDetailPage',
                    ),
                  },
                  {
                    path: 'queues/deposits',
                    ...lazyPage(
                      '../features/deposits/pages/money-requests-queue-page.tsx',
                      'MoneyRequestsQueuePage',
                    ),
                  },
                  {
                    path: 'queues/payouts',
                    ...lazyPage(
                      '../features/payouts/pages/payouts-queue-page.tsx',
                      'PayoutsQueuePage',
                    ),
                  },
                  {
                    path: 'queues/loans',
                    ...lazyPage('../features/loans/pages/loans-queue-page.tsx', 'LoansQueuePage'),
                  },
                  {
                    path: 'queues/kyc',
                    ...lazyPage('../features/kyc/pages/kyc-queue-page.tsx', 'KycQueuePage'),
                  },
                  {
                    path: 'queues/cards',
                    ...lazyPage('../features/cards/pages/cards-queue-page.tsx', 'CardsQueuePage'),
                  },
                  {
                    path: 'queues/disputes',
                    ...lazyPage(
                      '../features/disputes/pages/disputes-queue-page.tsx',
                      'DisputesQueuePage',
                    ),
                  },
                  {
                    path: 'disputes/:reference',
                    ...lazyPage(
                      '../features/disputes/pages/dispute-case-page.tsx',
                      'DisputeCasePage',
                    ),
                  },
                  {
                    path: 'queues/support',
                    ...lazyPage(
                      '../features/support/pages/support-queue-page.tsx',
                      'SupportQueuePage',
                    ),
                  },
                  {
                    path: 'audit',
                    ...lazyPage('../features/audit/pages/audit-log-page.tsx', 'AuditLogPage'),
                  },
                  {
                    path: 'books',
                    ...lazyPage('../features/books/pages/books-page.tsx', 'BooksPage'),
                  },
                  {
                    path: 'reports',
                    ...lazyPage('../features/reports/pages/reports-page.tsx', 'ReportsPage'),
                  },
                  {
                    path: 'reconciliation',
                    ...lazyPage(
                      '../features/payment-files/pages/reconciliation-page.tsx',
                      'ReconciliationPage',
                    ),
                  },
                  {
                    path: 'webhooks',
                    ...lazyPage('../features/webhooks/pages/webhooks-page.tsx', 'WebhooksPage'),
                  },
                  {
                    path: 'exchange-rates',
                    ...lazyPage(
                      '../features/admin/pages/exchange-rates-page.tsx',
                      'ExchangeRatesPage',
                    ),
                  },
                  { path: ':userId', element: <AdminUserAlias /> },
                  { path: '*', element: <NotFoundContent isInsideShell /> },
                ],
              },
            ],
          },
        ],
      },
      {
        // Any other address. Someone signed in gets the 404 page in their own frame.
        element: <NotFoundInOwnFrame />,
        children: [
          {
            ...shellLayout,
            children: [{ path: '*', element: <NotFoundContent isInsideShell /> }],
          },
        ],
      },
    ],
  },
];

export function createAppRouter(queryClient: QueryClient) {
  return createBrowserRouter(appRoutes(queryClient));
}
