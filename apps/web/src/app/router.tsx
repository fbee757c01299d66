import { createBrowserRouter, Navigate, type RouteObject, useParams } from 'react-router';
import { z } from 'zod';
import { NotFoundContent } from '../components/not-found-content.tsx';
import { AboutPage } from '../features/about/pages/about-page.tsx';
import { AuditLogPage } from '../features/admin/pages/audit-log-page.tsx';
import { CustomerDetailPage } from '../features/admin/pages/customer-detail-page.tsx';
import { CustomerListPage } from '../features/admin/pages/customer-list-page.tsx';
import { DepositsQueuePage } from '../features/admin/pages/deposits-queue-page.tsx';
import { ForgotPasswordPage } from '../features/auth/pages/forgot-password-page.tsx';
import { ResetPasswordPage } from '../features/auth/pages/reset-password-page.tsx';
import { SigninPage } from '../features/auth/pages/signin-page.tsx';
import { SignupPage } from '../features/auth/pages/signup-page.tsx';
import { VerifyEmailPage } from '../features/auth/pages/verify-email-page.tsx';
import { PayBillsPage } from '../features/bills/pages/pay-bills-page.tsx';
import { DevMailPage } from '../features/dev-mail/pages/dev-mail-page.tsx';
import { LandingPage } from '../features/landing/pages/landing-page.tsx';
import { PayoutsQueuePage } from '../features/payouts/pages/payouts-queue-page.tsx';
import { ProfilePage } from '../features/profile/pages/profile-page.tsx';
import { StatementsPage } from '../features/statements/pages/statements-page.tsx';
import { TransferPage } from '../features/transfers/pages/transfer-page.tsx';
import { AddMoneyPage } from '../features/wallet/pages/add-money-page.tsx';
import { DashboardPage } from '../features/wallet/pages/dashboard-page.tsx';
import { NotFoundPage } from './not-found-page.tsx';
import { PublicLayout } from './public-layout.tsx';
import { RootLayout } from './root-layout.tsx';
import { RouteErrorPage } from './route-error-page.tsx';
import { RequireSignedIn, RequireStaff, RequireVisitor } from './route-guards.tsx';
import { ShellLayout } from './shell/shell-layout.tsx';

// Paths are matched case-insensitively (React Router's default, and PRODUCT.md section 2
// requires it), then RootLayout rewrites /DashBoard to /dashboard. Leave `caseSensitive`
// unset on every route. Aliases whose spelling differs by more than case redirect to the
// canonical path; an alias joins this list in the same change as the page it points to.
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

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      {
        element: <PublicLayout />,
        children: [
          { index: true, element: <LandingPage /> },
          { path: 'about', element: <AboutPage /> },
          { path: 'verify-email', element: <VerifyEmailPage /> },
          { path: 'reset-password', element: <ResetPasswordPage /> },
          { path: 'dev/mail', element: <DevMailPage /> },
          {
            element: <RequireVisitor />,
            children: [
              { path: 'signup', element: <SignupPage /> },
              { path: 'signin', element: <SigninPage /> },
              { path: 'forgot-password', element: <ForgotPasswordPage /> },
            ],
          },
          ...aliases.map((alias) => ({
            path: alias.from,
            element: <Navigate to={alias.to} replace />,
          })),
          { path: '*', element: <NotFoundPage /> },
        ],
      },
      {
        element: <RequireSignedIn />,
        children: [
          {
            element: <ShellLayout />,
            children: [
              { path: 'dashboard', element: <DashboardPage /> },
              { path: 'dashboard/deposit', element: <AddMoneyPage /> },
              { path: 'transfer', element: <TransferPage /> },
              { path: 'withdrawal', element: <Navigate to="/transfer?tab=withdraw" replace /> },
              { path: 'pay-bills', element: <PayBillsPage /> },
              { path: 'statements', element: <StatementsPage /> },
              { path: 'profile', element: <ProfilePage /> },
            ],
          },
        ],
      },
      {
        // The back office. The deposits and payouts queues exist so far; the other queues of
        // PRODUCT.md (kyc, loans, cards, disputes, support) come with their features and are
        // 404s until then.
        path: 'admin',
        element: <RequireStaff />,
        children: [
          {
            element: <ShellLayout />,
            children: [
              { index: true, element: <CustomerListPage /> },
              { path: 'users', element: <Navigate to="/admin" replace /> },
              { path: 'users/:userId', element: <CustomerDetailPage /> },
              { path: 'queues/deposits', element: <DepositsQueuePage /> },
              { path: 'queues/payouts', element: <PayoutsQueuePage /> },
              { path: 'audit', element: <AuditLogPage /> },
              { path: ':userId', element: <AdminUserAlias /> },
              { path: '*', element: <NotFoundContent isInsideShell /> },
            ],
          },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);
