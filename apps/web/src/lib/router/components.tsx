// The router's React side: the providers for the browser and the server, the matched routes
// rendered inside one another (Outlet), links, redirects and the hooks pages read.
import {
  type AnchorHTMLAttributes,
  Component,
  createContext,
  type MouseEvent,
  type ReactNode,
  type Ref,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useState,
} from 'react';
import type {
  DataRouter,
  Navigate as NavigateFunction,
  NavigateOptions,
} from './browser-router.ts';
import { createPath, type Location, resolveTo, type To } from './history.ts';
import type { Params, RouteObject } from './match.ts';
import { loadedComponentOf, loadRouteCode, matchesFor, type RouterState } from './router-state.ts';

type RouterContextValue = {
  state: RouterState;
  navigate: NavigateFunction;
  /** The browser's memory of scroll positions; the server has none. */
  scrollPositions?: Map<string, number>;
};

const RouterContext = createContext<RouterContextValue | null>(null);
/** What an `<Outlet />` shows: the matched route inside the one rendering it. */
const OutletContext = createContext<ReactNode>(null);

function useRouter(): RouterContextValue {
  const router = useContext(RouterContext);
  if (!router) throw new Error('Router hooks and links need a RouterProvider');
  return router;
}

/** Catches what a route and everything inside it throw while rendering. */
class RouteErrorBoundary extends Component<
  { fallback: ReactNode; locationKey: string; children: ReactNode },
  { hasError: boolean; locationKey: string }
> {
  override state = { hasError: false, locationKey: this.props.locationKey };

  static getDerivedStateFromError() {
    return { hasError: true };
  }

  /** Another page gets its own chance to render. */
  static getDerivedStateFromProps(
    props: { locationKey: string },
    state: { locationKey: string },
  ): object | null {
    return props.locationKey === state.locationKey
      ? null
      : { hasError: false, locationKey: props.locationKey };
  }

  override render() {
    return this.state.hasError ? this.props.fallback : this.props.children;
  }
}

function elementOf(route: RouteObject): ReactNode {
  const Loaded = loadedComponentOf(route);
  if (Loaded) return <Loaded />;
  return route.element ?? <Outlet />;
}

/** The index of the closest route at or around `matchIndex` that shows errors. */
function errorRouteIndex(state: RouterState, matchIndex: number, error: unknown): number {
  for (let index = matchIndex; index >= 0; index -= 1) {
    if (state.matches[index]?.route.errorElement !== undefined) return index;
  }
  throw error;
}

/** One matched route around `outlet`, behind its error boundary if it has one. */
function routeAround(route: RouteObject, outlet: ReactNode, locationKey: string): ReactNode {
  const element = <OutletContext value={outlet}>{elementOf(route)}</OutletContext>;
  if (route.errorElement === undefined) return element;
  return (
    <RouteErrorBoundary fallback={route.errorElement} locationKey={locationKey}>
      {element}
    </RouteErrorBoundary>
  );
}

/** The matched routes, each inside the one around it; a failed load shows its error route. */
function renderMatches(state: RouterState): ReactNode {
  const { loadError, matches } = state;
  const errorIndex = loadError
    ? errorRouteIndex(state, loadError.matchIndex, loadError.error)
    : undefined;
  let rendered: ReactNode =
    errorIndex === undefined ? null : matches[errorIndex]?.route.errorElement;
  for (let index = (errorIndex ?? matches.length) - 1; index >= 0; index -= 1) {
    const route = matches[index]?.route;
    if (route) rendered = routeAround(route, rendered, state.location.key);
  }
  return rendered;
}

/** The app in the browser. Until the first page's code has loaded, its HydrateFallback. */
export function RouterProvider({ router }: { router: DataRouter }) {
  const [state, setState] = useState(router.state);
  useLayoutEffect(() => {
    // As a transition, as React Router does: a page that suspends keeps the last one shown.
    const follow = () => startTransition(() => setState(router.state));
    const unsubscribe = router.subscribe(follow);
    follow();
    return unsubscribe;
  }, [router]);
  const value = useMemo(
    () => ({ state, navigate: router.navigate, scrollPositions: router.scrollPositions }),
    [state, router],
  );
  const Fallback = state.matches.find(({ route }) => route.HydrateFallback)?.route.HydrateFallback;
  if (!state.initialized) return Fallback ? <Fallback /> : null;
  return <RouterContext value={value}>{renderMatches(state)}</RouterContext>;
}

const cannotNavigate: NavigateFunction = () => {
  throw new Error('A page rendered on the server cannot navigate');
};

/** What the server renders for `path`: the routes it shows, their code loaded. */
export async function createStaticRouter(
  routes: readonly RouteObject[],
  path: string,
): Promise<RouterState> {
  const location: Location = {
    ...resolveTo(path, { pathname: '/', search: '', hash: '' }),
    state: null,
    key: 'default',
  };
  const found = matchesFor(routes, location.pathname);
  const loadError = await loadRouteCode(found.matches);
  return {
    ...found,
    location,
    loadError,
    initialized: true,
    action: 'POP',
    preventScrollReset: false,
  };
}

/** The server's render of a router state: the same markup the browser hydrates. */
export function StaticRouterProvider({ router }: { router: RouterState }) {
  return (
    <RouterContext value={{ state: router, navigate: cannotNavigate }}>
      {renderMatches(router)}
    </RouterContext>
  );
}

/** A fixed address for components rendered on the server outside the route table. */
export function StaticRouter({ location, children }: { location: string; children: ReactNode }) {
  const state: RouterState = {
    location: {
      ...resolveTo(location, { pathname: '/', search: '', hash: '' }),
      state: null,
      key: 'default',
    },
    matches: [],
    params: {},
    initialized: true,
    action: 'POP',
    preventScrollReset: false,
  };
  return <RouterContext value={{ state, navigate: cannotNavigate }}>{children}</RouterContext>;
}

/** Where a layout shows the route inside it. */
export function Outlet() {
  return useContext(OutletContext);
}

export function useLocation(): Location {
  return useRouter().state.location;
}

/** The address's parameters (`:userId`, `*`), the same for every route it shows. */
export function useParams(): Params {
  return useRouter().state.params;
}

export function useNavigate(): NavigateFunction {
  return useRouter().navigate;
}

type SearchParamsInit = URLSearchParams | Record<string, string>;

export function useSearchParams(): [
  URLSearchParams,
  (
    next: SearchParamsInit | ((current: URLSearchParams) => SearchParamsInit),
    options?: NavigateOptions,
  ) => void,
] {
  const { state, navigate } = useRouter();
  const { search } = state.location;
  const searchParams = useMemo(() => new URLSearchParams(search), [search]);
  const setSearchParams = useCallback(
    (
      next: SearchParamsInit | ((current: URLSearchParams) => SearchParamsInit),
      options?: NavigateOptions,
    ) => {
      const value = typeof next === 'function' ? next(new URLSearchParams(search)) : next;
      const query = new URLSearchParams(value).toString();
      void navigate({ search: query ? `?${query}` : '' }, options);
    },
    [navigate, search],
  );
  return [searchParams, setSearchParams];
}

/** Goes to `to` once rendered (in an effect: rendering stays free of side effects). */
export function Navigate({ to, ...options }: { to: To } & NavigateOptions) {
  const { state, navigate } = useRouter();
  const target = createPath(resolveTo(to, state.location));
  const { replace, state: entryState } = options;
  useEffect(() => {
    void navigate(target, { replace, state: entryState });
  }, [navigate, target, replace, entryState]);
  return null;
}

export type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> &
  NavigateOptions & { to: To; ref?: Ref<HTMLAnchorElement> };

/** Whether the browser should handle the click itself: a new tab or window, a download. */
function isForTheBrowser(event: MouseEvent<HTMLAnchorElement>, target: string | undefined) {
  const hasModifier = event.metaKey || event.altKey || event.ctrlKey || event.shiftKey;
  return (
    event.defaultPrevented || event.button !== 0 || hasModifier || (!!target && target !== '_self')
  );
}

/** A real link (`<a href>`) that the app follows itself on a plain click. */
export function Link({ to, replace, state, preventScrollReset, onClick, ...anchor }: LinkProps) {
  const router = useRouter();
  const href = createPath(resolveTo(to, router.state.location));
  return (
    <a
      {...anchor}
      href={href}
      onClick={(event) => {
        onClick?.(event);
        if (isForTheBrowser(event, anchor.target)) return;
        event.preventDefault();
        void router.navigate(href, { replace, state, preventScrollReset });
      }}
    />
  );
}

/**
 * A new page starts at its top (or its #section); Back and Forward return to where the
 * page was scrolled. The first page is left where it is unless the tab was reloaded there.
 */
export function ScrollRestoration() {
  const { state, scrollPositions } = useRouter();
  useLayoutEffect(() => {
    if (!scrollPositions) return;
    const { key, hash } = state.location;
    if (state.action === 'POP') {
      const saved = scrollPositions.get(key);
      if (saved !== undefined) window.scrollTo(0, saved);
    } else if (hash) {
      document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
    } else if (!state.preventScrollReset) {
      window.scrollTo(0, 0);
    }
  }, [state, scrollPositions]);
  return null;
}
