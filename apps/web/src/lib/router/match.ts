// Which routes an address shows (docs/decisions/028). The ranking is React Router's, which
// the route table in app/router.tsx was written for: the most specific pattern wins
// whatever its place in the table, and equally specific ones go in table order.
import type { ComponentType, ReactNode } from 'react';

export type RouteObject = {
  /** Relative to the parent's path; `:name` is a parameter, a last `*` takes the rest. */
  path?: string;
  /** Shown at its parent's own path. */
  index?: boolean;
  element?: ReactNode;
  /** Shown instead of this route and everything inside it when they fail. */
  errorElement?: ReactNode;
  /** Shown while the first page's code loads (a page the app renders itself). */
  HydrateFallback?: ComponentType;
  /** The route's component, loaded before the route first shows. */
  lazy?: () => Promise<{ Component: ComponentType }>;
  /** Called as soon as the route matches, before its code has loaded. */
  loader?: () => unknown;
  handle?: unknown;
  children?: RouteObject[];
};

export type Params = Record<string, string>;

export type RouteMatch = { route: RouteObject };

/** The routes an address shows, outermost first, and the parameters it gives them all. */
export type RouteMatches = { matches: RouteMatch[]; params: Params };

type Branch = { routes: RouteObject[]; pattern: CompiledPattern };
type CompiledPattern = { regex: RegExp; paramNames: string[]; score: number };

const parameterSegment = /^:[\w-]+$/;

/** React Router's `computeScore`: static segments outweigh parameters, a splat weighs less. */
function scoreOf(path: string, isIndex: boolean): number {
  const segments = path.split('/');
  const initial = segments.length + (segments.includes('*') ? -2 : 0) + (isIndex ? 2 : 0);
  return segments
    .filter((segment) => segment !== '*')
    .reduce((score, segment) => {
      if (parameterSegment.test(segment)) return score + 3;
      return score + (segment === '' ? 1 : 10);
    }, initial);
}

/** A whole-path pattern as a case-insensitive expression (PRODUCT.md section 2). */
function compile(path: string, isIndex = false): CompiledPattern {
  const paramNames: string[] = [];
  let source = `^${path
    .replace(/\/*\*?$/, '')
    .replace(/^\/*/, '/')
    .replace(/[\\.*+^${}|()[\]]/g, '\\$&')
    .replace(/\/:([\w-]+)/g, (_, name: string) => {
      paramNames.push(name);
      return '/([^\\/]+)';
    })}`;
  if (path.endsWith('*')) {
    paramNames.push('*');
    source += path === '*' || path === '/*' ? '(.*)$' : '(?:\\/(.+)|\\/*)$';
  } else {
    source += '\\/*$';
  }
  return { regex: new RegExp(source, 'i'), paramNames, score: scoreOf(path, isIndex) };
}

function joinPaths(parent: string, child: string | undefined): string {
  return `${parent}/${child ?? ''}`.replace(/\/\/+/g, '/');
}

/** Every route that can end a match, with the routes around it, children before parents. */
function branchesOf(routes: readonly RouteObject[], parents: RouteObject[] = [], parentPath = '') {
  return routes.flatMap((route): Branch[] => {
    const path = joinPaths(parentPath, route.path);
    const lineage = [...parents, route];
    const inner = route.children ? branchesOf(route.children, lineage, path) : [];
    // A route without a path only shows around its children.
    if (route.path === undefined && !route.index) return inner;
    return [...inner, { routes: lineage, pattern: compile(path, route.index) }];
  });
}

const rankedBranches = new WeakMap<readonly RouteObject[], Branch[]>();

function rankedBranchesOf(routes: readonly RouteObject[]): Branch[] {
  let ranked = rankedBranches.get(routes);
  if (!ranked) {
    // A stable sort: equally specific patterns keep the table's order.
    ranked = branchesOf(routes).sort((a, b) => b.pattern.score - a.pattern.score);
    rankedBranches.set(routes, ranked);
  }
  return ranked;
}

function decoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function paramsOf(pattern: CompiledPattern, pathname: string): Params | null {
  const found = pattern.regex.exec(pathname);
  if (!found) return null;
  return Object.fromEntries(
    pattern.paramNames.map((name, index) => [name, decoded(found[index + 1] ?? '')]),
  );
}

/** The routes `pathname` shows, or null when no route takes it. */
export function matchRoutes(routes: readonly RouteObject[], pathname: string): RouteMatches | null {
  for (const branch of rankedBranchesOf(routes)) {
    const params = paramsOf(branch.pattern, pathname);
    if (params) return { matches: branch.routes.map((route) => ({ route })), params };
  }
  return null;
}

/** Whether a whole-path pattern (`/admin/users/*`) takes `pathname`, and its parameters. */
export function matchPath(pattern: string, pathname: string): { params: Params } | null {
  const params = paramsOf(compile(pattern), pathname);
  return params ? { params } : null;
}
