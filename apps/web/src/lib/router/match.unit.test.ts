import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../../app/query-client.ts';
import { appRoutes } from '../../app/router.tsx';
import { matchPath, matchRoutes, type RouteObject } from './match.ts';

/** A route named by its `handle`, so a match reads as the names of the routes it shows. */
function named(name: string, route: RouteObject = {}): RouteObject {
  return { ...route, handle: name };
}

const routes: RouteObject[] = [
  named('root', {
    children: [
      named('public', {
        children: [
          named('home', { index: true }),
          named('about', { path: 'about' }),
          named('dev-mail', { path: 'dev/mail' }),
        ],
      }),
      named('admin', {
        path: 'admin',
        children: [
          named('customer-list', { index: true }),
          named('users', { path: 'users' }),
          named('customer', { path: 'users/:userId' }),
          named('alias', { path: ':userId' }),
          named('admin-404', { path: '*' }),
        ],
      }),
      named('404', { path: '*' }),
    ],
  }),
];

function shown(pathname: string) {
  const found = matchRoutes(routes, pathname);
  return found && { names: found.matches.map(({ route }) => route.handle), params: found.params };
}

describe('matchRoutes', () => {
  it('shows an index route at its parent path, inside every layout around it', () => {
    expect(shown('/')).toEqual({ names: ['root', 'public', 'home'], params: {} });
    expect(shown('/admin')).toEqual({ names: ['root', 'admin', 'customer-list'], params: {} });
  });

  it('reads parameters, decoded, and gives them to every route shown', () => {
    expect(shown('/admin/users/a%20b')).toEqual({
      names: ['root', 'admin', 'customer'],
      params: { userId: 'a b' },
    });
  });

  it('matches whatever the case, and keeps a parameter as typed', () => {
    expect(shown('/AbOuT')?.names).toEqual(['root', 'public', 'about']);
    expect(shown('/Admin/Users/ABC')).toEqual({
      names: ['root', 'admin', 'customer'],
      params: { userId: 'ABC' },
    });
  });

  it('takes a trailing slash, and paths of several segments', () => {
    expect(shown('/about/')?.names).toEqual(['root', 'public', 'about']);
    expect(shown('/dev/mail')?.names).toEqual(['root', 'public', 'dev-mail']);
  });

  it('prefers a static segment to a parameter, and both to a splat, whatever the order', () => {
    expect(shown('/admin/users')?.names).toEqual(['root', 'admin', 'users']);
    expect(shown('/admin/someone')).toEqual({
      names: ['root', 'admin', 'alias'],
      params: { userId: 'someone' },
    });
    expect(shown('/admin/a/b')).toEqual({
      names: ['root', 'admin', 'admin-404'],
      params: { '*': 'a/b' },
    });
  });

  it('gives an unknown address to the closest splat, and nothing without one', () => {
    expect(shown('/nowhere/at/all')).toEqual({
      names: ['root', '404'],
      params: { '*': 'nowhere/at/all' },
    });
    expect(matchRoutes([named('about', { path: 'about' })], '/nowhere')).toBeNull();
    expect(matchRoutes([named('about', { path: 'about' })], '/about/more')).toBeNull();
  });

  it("shows the app's own pages as React Router did", () => {
    const appTable = appRoutes(createQueryClient());
    const pageOf = (pathname: string) => {
      const last = matchRoutes(appTable, pathname)?.matches.at(-1)?.route;
      return last?.handle ?? last?.path;
    };
    expect(pageOf('/')).toEqual({ pageModule: 'src/features/landing/pages/landing-page.tsx' });
    expect(pageOf('/Dashboard')).toEqual({
      pageModule: 'src/features/wallet/pages/dashboard-page.tsx',
    });
    expect(pageOf('/admin/users/6f1c4c52-0000-4000-8000-000000000000')).toEqual({
      pageModule: 'src/features/admin/pages/customer-detail-page.tsx',
    });
    expect(pageOf('/admin/6f1c4c52-0000-4000-8000-000000000000')).toBe(':userId');
    expect(pageOf('/admin/users')).toBe('users');
    expect(pageOf('/admin/nope/nope')).toBe('*');
    expect(pageOf('/aboutus')).toBe('aboutus');
    expect(pageOf('/no-such-page')).toBe('*');
  });
});

describe('matchPath', () => {
  it('matches a whole path, a splat also matching nothing', () => {
    expect(matchPath('/admin', '/admin')).toEqual({ params: {} });
    expect(matchPath('/admin', '/admin/users')).toBeNull();
    expect(matchPath('/admin/users/*', '/admin/users')).toEqual({ params: { '*': '' } });
    expect(matchPath('/admin/users/*', '/admin/users/42')).toEqual({ params: { '*': '42' } });
    expect(matchPath('/dashboard/*', '/dashboards')).toBeNull();
    expect(matchPath('/admin/disputes/:reference', '/admin/disputes/D-1')).toEqual({
      params: { reference: 'D-1' },
    });
  });
});
