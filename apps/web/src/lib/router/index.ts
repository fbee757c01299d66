// Coffer's router (docs/decisions/028): React Router's names for the part of it the app uses.
export { createBrowserRouter, type DataRouter, type NavigateOptions } from './browser-router.ts';
export {
  createStaticRouter,
  Link,
  type LinkProps,
  Navigate,
  Outlet,
  RouterProvider,
  ScrollRestoration,
  StaticRouter,
  StaticRouterProvider,
  useLocation,
  useNavigate,
  useParams,
  useSearchParams,
} from './components.tsx';
export { createPath, type Location, type To } from './history.ts';
export { matchPath, type Params, type RouteObject } from './match.ts';
export type { RouterState } from './router-state.ts';
