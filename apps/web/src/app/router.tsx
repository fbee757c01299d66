import { createBrowserRouter, type RouteObject } from 'react-router';
import { DashboardPage } from '../features/dashboard/pages/dashboard-page.tsx';
import { LandingPage } from '../features/landing/pages/landing-page.tsx';
import { NotFoundPage } from './not-found-page.tsx';
import { PublicLayout } from './public-layout.tsx';
import { RouteErrorPage } from './route-error-page.tsx';
import { ShellLayout } from './shell/shell-layout.tsx';

// Paths are matched case-insensitively (React Router's default, and PRODUCT.md section 2
// requires it): /DashBoard shows the dashboard. Leave `caseSensitive` unset on every route.
export const routes: RouteObject[] = [
  {
    errorElement: <RouteErrorPage />,
    children: [
      {
        element: <PublicLayout />,
        children: [
          { index: true, element: <LandingPage /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
      {
        element: <ShellLayout />,
        children: [{ path: 'dashboard', element: <DashboardPage /> }],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);
