import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { AboutPage } from '../features/about/pages/about-page.tsx';
import { ForgotPasswordPage } from '../features/auth/pages/forgot-password-page.tsx';
import { ResetPasswordPage } from '../features/auth/pages/reset-password-page.tsx';
import { SigninPage } from '../features/auth/pages/signin-page.tsx';
import { SignupPage } from '../features/auth/pages/signup-page.tsx';
import { VerifyEmailPage } from '../features/auth/pages/verify-email-page.tsx';
import { DashboardPage } from '../features/dashboard/pages/dashboard-page.tsx';
import { DevMailPage } from '../features/dev-mail/pages/dev-mail-page.tsx';
import { LandingPage } from '../features/landing/pages/landing-page.tsx';
import { ProfilePage } from '../features/profile/pages/profile-page.tsx';
import { NotFoundPage } from './not-found-page.tsx';
import { PublicLayout } from './public-layout.tsx';
import { RootLayout } from './root-layout.tsx';
import { RouteErrorPage } from './route-error-page.tsx';
import { RequireSignedIn, RequireVisitor } from './route-guards.tsx';
import { ShellLayout } from './shell/shell-layout.tsx';

// Paths are matched case-insensitively (React Router's default, and PRODUCT.md section 2
// requires it), then RootLayout rewrites /DashBoard to /dashboard. Leave `caseSensitive`
// unset on every route. Aliases whose spelling differs by more than case redirect to the
// canonical path; an alias joins this list in the same change as the page it points to.
const aliases: readonly { from: string; to: string }[] = [
  { from: 'aboutus', to: '/about' },
  { from: 'forget-password', to: '/forgot-password' },
];

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
          // Staff pages do not exist in this build, so /admin is as unknown as any other path.
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
              { path: 'profile', element: <ProfilePage /> },
            ],
          },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);
