// What the router shows, the same in the browser and on the server: the address, the
// routes it matches with their code loaded, and a failure to load that code.
import type { ComponentType } from 'react';
import type { Location } from './history.ts';
import { matchRoutes, type Params, type RouteMatch, type RouteObject } from './match.ts';

/** A route whose code failed to load, by its place among the matches. */
export type LoadError = { error: unknown; matchIndex: number };

export type RouterState = {
  /** False until the first address's code has loaded. */
  initialized: boolean;
  location: Location;
  /** How the address was reached: Back or Forward (and the first load) are POP. */
  action: 'POP' | 'PUSH' | 'REPLACE';
  matches: RouteMatch[];
  params: Params;
  loadError?: LoadError;
  preventScrollReset: boolean;
};

const loadedComponents = new WeakMap<RouteObject, ComponentType>();

/** A lazy route's component once loaded (loadRouteCode). */
export function loadedComponentOf(route: RouteObject): ComponentType | undefined {
  return loadedComponents.get(route);
}

/** The routes `pathname` shows. The route table ends in a `*` route, so one always does. */
export function matchesFor(routes: readonly RouteObject[], pathname: string) {
  const found = matchRoutes(routes, pathname);
  if (!found) throw new Error(`No route matches ${pathname}; the route table needs a * route`);
  return found;
}

/** Loads the code of every lazy route among `matches`, at once; the first failure, if any. */
export async function loadRouteCode(
  matches: readonly RouteMatch[],
): Promise<LoadError | undefined> {
  const failures = await Promise.all(
    matches.map(async ({ route }, matchIndex): Promise<LoadError | undefined> => {
      if (!route.lazy || loadedComponents.has(route)) return undefined;
      try {
        loadedComponents.set(route, (await route.lazy()).Component);
        return undefined;
      } catch (error) {
        return { error, matchIndex };
      }
    }),
  );
  return failures.find((failure) => failure !== undefined);
}
