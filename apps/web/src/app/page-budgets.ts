// What each page of the app weighs at its first load, and the budgets the build holds it
// to (apps/web/budgets.json, checked by `vite build`, docs/decisions/021). A page's first
// load is the JavaScript it cannot run without: the app's entry and the modules of the
// routes it renders, with every chunk they import statically. Code a page loads on
// demand (a dialog, a menu) is not part of it.

import type { RouteObject } from 'react-router';
import { type BuildManifest, firstLoadChunks } from '../lib/build-manifest.ts';
import type { PageHandle } from './router.tsx';

/** A route with code of its own, by its full path, with the route modules it renders. */
export type AppPage = { path: string; routeModules: string[] };

/** Gzipped first-load JavaScript allowed per page path, in kilobytes (1,000 bytes). */
export type PageBudgets = Record<string, number>;

export type PageWeight = { path: string; gzipBytes: number; files: number; budgetKb?: number };

const bytesPerKb = 1000;

function joinPath(parentPath: string, route: RouteObject): string {
  if (route.index || route.path === undefined) return parentPath || '/';
  return `${parentPath.replace(/\/$/, '')}/${route.path}`;
}

/**
 * Every route that loads code of its own (router.tsx `lazyPage`), with the modules of the
 * layouts around it. Redirects and the 404 page load no more than their frame.
 */
export function appPages(
  routes: readonly RouteObject[],
  parentPath = '',
  parentModules: string[] = [],
): AppPage[] {
  return routes.flatMap((route) => {
    const path = joinPath(parentPath, route);
    const pageModule = (route.handle as PageHandle | undefined)?.pageModule;
    const routeModules = pageModule ? [...parentModules, pageModule] : parentModules;
    if (route.children) return appPages(route.children, path, routeModules);
    return pageModule ? [{ path, routeModules }] : [];
  });
}

/** Each page's first-load JavaScript, gzipped, as `gzipBytesOf` measures a built file. */
export function pageWeights(
  manifest: BuildManifest,
  pages: readonly AppPage[],
  gzipBytesOf: (file: string) => number,
  budgets: PageBudgets = {},
): PageWeight[] {
  return pages.map((page) => {
    const files = firstLoadChunks(manifest, page.routeModules).map((chunk) => chunk.file);
    return {
      path: page.path,
      gzipBytes: files.reduce((sum, file) => sum + gzipBytesOf(file), 0),
      files: files.length,
      budgetKb: budgets[page.path],
    };
  });
}

/** Why the build fails: a page over its budget or without one, a budget for no page. */
export function budgetProblems(weights: readonly PageWeight[], budgets: PageBudgets): string[] {
  const problems = weights.flatMap((weight) => {
    if (weight.budgetKb === undefined) return [`${weight.path} has no budget in budgets.json`];
    if (weight.gzipBytes > weight.budgetKb * bytesPerKb) {
      return [
        `${weight.path} loads ${(weight.gzipBytes / bytesPerKb).toFixed(1)} KB of JavaScript, gzipped; its budget is ${weight.budgetKb} KB`,
      ];
    }
    return [];
  });
  const paths = new Set(weights.map((weight) => weight.path));
  const unknown = Object.keys(budgets).filter((path) => !paths.has(path));
  return [...problems, ...unknown.map((path) => `budgets.json lists ${path}, which is no page`)];
}

/** The per-page table the build prints. */
export function weightTable(weights: readonly PageWeight[]): string {
  const rows = weights.map((weight) => [
    weight.path,
    (weight.gzipBytes / bytesPerKb).toFixed(1),
    weight.budgetKb === undefined ? '-' : String(weight.budgetKb),
    String(weight.files),
  ]);
  const header = ['page', 'first-load JS KB (gzip)', 'budget KB', 'files'];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)),
  );
  return [header, ...rows]
    .map((row) =>
      row
        .map((cell, column) =>
          column === 0 ? cell.padEnd(widths[0] ?? 0) : cell.padStart(widths[column] ?? 0),
        )
        .join('  '),
    )
    .join('\n');
}
