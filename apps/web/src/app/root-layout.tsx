import { Navigate, Outlet, ScrollRestoration, useLocation, useParams } from 'react-router';

/**
 * The root of every page. Routes match case-insensitively, and then the address is
 * rewritten to the canonical, lower-case path (/SignUp becomes /signup), so one page has one
 * address. Paths with parameters (ids, or the 404 page's unknown path) are left as typed.
 */
export function RootLayout() {
  const location = useLocation();
  const params = useParams();
  const canonicalPath = location.pathname.toLowerCase();
  if (Object.keys(params).length === 0 && location.pathname !== canonicalPath) {
    return (
      <Navigate
        to={{ pathname: canonicalPath, search: location.search, hash: location.hash }}
        state={location.state}
        replace
      />
    );
  }
  return (
    <>
      {/* A new page starts at its top (or at its #section); Back returns to where you were. */}
      <ScrollRestoration />
      <Outlet />
    </>
  );
}
