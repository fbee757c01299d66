import { readFileSync } from 'node:fs';
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { BuildManifest } from '../lib/build-manifest.ts';
import { appPages, budgetProblems, type PageBudgets, pageWeights } from './page-budgets.ts';
import { createQueryClient } from './query-client.ts';
import { appRoutes } from './router.tsx';

const budgets = JSON.parse(
  readFileSync(new URL('../../budgets.json', import.meta.url), 'utf8'),
) as PageBudgets;
const pages = appPages(appRoutes(createQueryClient()));

function routesWithCode(routes: readonly RouteObject[]): RouteObject[] {
  return routes.flatMap((route) => [
    ...(route.lazy ? [route] : []),
    ...routesWithCode(route.children ?? []),
  ]);
}

describe('the page budgets', () => {
  it('list every page of the router, and nothing else', () => {
    expect(pages.length).toBeGreaterThan(20);
    expect(Object.keys(budgets).sort()).toEqual(pages.map((page) => page.path).sort());
  });

  it('weigh each page with the layouts around it', () => {
    const byPath = new Map(pages.map((page) => [page.path, page.routeModules]));
    expect(byPath.get('/dashboard')).toEqual([
      'src/app/shell/shell-layout.tsx',
      'src/features/wallet/pages/dashboard-page.tsx',
    ]);
    expect(byPath.get('/admin/users/:userId')).toEqual([
      'src/app/shell/shell-layout.tsx',
      'src/features/admin/pages/customer-detail-page.tsx',
    ]);
    expect(byPath.get('/')).toEqual([
      'src/app/public-layout.tsx',
      'src/features/landing/pages/landing-page.tsx',
    ]);
  });

  it('name modules that export the pages the routes show', async () => {
    const routes = routesWithCode(appRoutes(createQueryClient()));
    for (const route of routes) {
      const lazy = route.lazy;
      if (typeof lazy !== 'function') throw new Error('every lazy route is a function');
      const { Component } = await lazy();
      expect(typeof Component, JSON.stringify(route.handle)).toBe('function');
    }
  }, 60_000);
});

describe('the budget check', () => {
  // The entry imports a shared chunk; both pages import it too, and one page a big chunk.
  const manifest: BuildManifest = {
    'index.html': { file: 'assets/main.js', imports: ['_vendor.js'] },
    '_vendor.js': { file: 'assets/vendor.js' },
    'src/small-page.tsx': { file: 'assets/small.js', imports: ['_vendor.js'] },
    'src/big-page.tsx': { file: 'assets/big.js', imports: ['_vendor.js', '_chart.js'] },
    '_chart.js': { file: 'assets/chart.js' },
  };
  const gzipBytes: Record<string, number> = {
    'assets/main.js': 40_000,
    'assets/vendor.js': 60_000,
    'assets/small.js': 5_000,
    'assets/big.js': 20_000,
    'assets/chart.js': 30_000,
  };
  const syntheticPages = [
    { path: '/small', routeModules: ['src/small-page.tsx'] },
    { path: '/big', routeModules: ['src/big-page.tsx'] },
  ];
  const weigh = (pageBudgets: PageBudgets) =>
    pageWeights(manifest, syntheticPages, (file) => gzipBytes[file] ?? 0, pageBudgets);

  it('counts each page’s entry, route modules and their static imports once', () => {
    expect(weigh({}).map(({ path, gzipBytes, files }) => ({ path, gzipBytes, files }))).toEqual([
      { path: '/small', gzipBytes: 105_000, files: 3 },
      { path: '/big', gzipBytes: 150_000, files: 4 },
    ]);
  });

  it('passes pages within their budgets', () => {
    const pageBudgets = { '/small': 110, '/big': 150 };
    expect(budgetProblems(weigh(pageBudgets), pageBudgets)).toEqual([]);
  });

  it('fails a page over its budget, a page without one, and a budget for no page', () => {
    const pageBudgets = { '/small': 104, '/gone': 100 };
    expect(budgetProblems(weigh(pageBudgets), pageBudgets)).toEqual([
      '/small loads 105.0 KB of JavaScript, gzipped; its budget is 104 KB',
      '/big has no budget in budgets.json',
      'budgets.json lists /gone, which is no page',
    ]);
  });

  it('fails when a page’s module is missing from the manifest', () => {
    const pagesWithTypo = [{ path: '/typo', routeModules: ['src/tpyo-page.tsx'] }];
    expect(() => pageWeights(manifest, pagesWithTypo, () => 0)).toThrow(
      "the build's manifest has no src/tpyo-page.tsx",
    );
  });
});
