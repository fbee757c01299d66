// The browser's router: follows the address, loads the code of the routes it shows before
// showing them (the page on screen stays until then), and remembers each history entry's
// scroll position so Back and Forward return to it.
import {
  type BrowserHistory,
  createBrowserHistory,
  createPath,
  type Location,
  type Path,
  resolveTo,
  type To,
} from './history.ts';
import type { RouteObject } from './match.ts';
import { loadRouteCode, matchesFor, type RouterState } from './router-state.ts';

export type NavigateOptions = {
  replace?: boolean;
  state?: unknown;
  /** Leave the scroll position as it is (a tab or filter written into the address). */
  preventScrollReset?: boolean;
};

export type Navigate = (to: To, options?: NavigateOptions) => Promise<void>;

/** The browser's router: its state, and a way to follow it. */
export type DataRouter = {
  readonly state: RouterState;
  subscribe: (listener: () => void) => () => void;
  navigate: Navigate;
  /** Where the window was scrolled on each history entry, by the entry's key. */
  scrollPositions: Map<string, number>;
};

/** Kept across reloads of the tab, as the browser keeps its history. */
const scrollPositionsKey = 'coffer-scroll-positions';

function rememberedScrollPositions(): Map<string, number> {
  try {
    const saved: unknown = JSON.parse(sessionStorage.getItem(scrollPositionsKey) ?? '{}');
    return new Map(Object.entries(saved as Record<string, number>));
  } catch {
    return new Map();
  }
}

/** The router scrolls (ScrollRestoration); the browser would restore before the page is back. */
function takeOverScrolling(history: BrowserHistory, positions: Map<string, number>): void {
  window.history.scrollRestoration = 'manual';
  window.addEventListener('pagehide', () => {
    positions.set(history.location().key, window.scrollY);
    sessionStorage.setItem(scrollPositionsKey, JSON.stringify(Object.fromEntries(positions)));
  });
}

export function createBrowserRouter(routes: readonly RouteObject[]): DataRouter {
  const history = createBrowserHistory();
  const scrollPositions = rememberedScrollPositions();
  takeOverScrolling(history, scrollPositions);
  const listeners = new Set<() => void>();
  let state: RouterState = {
    ...matchesFor(routes, window.location.pathname),
    location: history.location(),
    initialized: false,
    action: 'POP',
    preventScrollReset: false,
  };
  // Only the latest navigation shows; an earlier one still loading is dropped.
  let latestNavigation = 0;

  /** Loads what `path` shows, then enters it in the history (`enter`) and shows it. */
  async function show(
    path: Path,
    action: RouterState['action'],
    enter: () => Location,
    preventScrollReset = false,
  ): Promise<void> {
    const navigation = ++latestNavigation;
    const next = matchesFor(routes, path.pathname);
    for (const { route } of next.matches) route.loader?.();
    const loadError = await loadRouteCode(next.matches);
    if (navigation !== latestNavigation) return;
    const location = enter();
    scrollPositions.set(state.location.key, window.scrollY);
    state = { ...next, location, loadError, initialized: true, action, preventScrollReset };
    for (const listener of listeners) listener();
  }

  history.listen(() => void show(history.location(), 'POP', history.location));
  void show(state.location, 'POP', history.location);

  return {
    get state() {
      return state;
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    navigate: (to, options = {}) => {
      const path = resolveTo(to, state.location);
      // A link to the page on screen does not add a history entry.
      const isReplace = options.replace ?? createPath(path) === createPath(state.location);
      const enter = () => {
        history[isReplace ? 'replace' : 'push'](path, options.state);
        return history.location();
      };
      return show(path, isReplace ? 'REPLACE' : 'PUSH', enter, options.preventScrollReset);
    },
    scrollPositions,
  };
}
