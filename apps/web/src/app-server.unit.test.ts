import type { Me } from '@coffer/contracts/auth';
import { describe, expect, it } from 'vitest';
import { type AppPageRequest, renderAppPage } from './app-server.tsx';
import { customerMe } from './test-fixtures.ts';

const build = {
  template:
    '<!doctype html><html><head><title>x</title></head><body><div id="root"><!--app-page--></div><!--app-answers--></body></html>',
  manifest: {},
};

const customer = customerMe;
const everyPageAnswers = ['/api/v1/auth/session', '/api/v1/public/site', '/api/v1/health'];

/** A request whose API answers the session with `me` and everything else with 200 `{}`. */
function requestFor(url: string, me: Me | null, asked: string[]): AppPageRequest {
  return {
    url,
    callApi: async (apiPath) => {
      asked.push(apiPath);
      if (apiPath === '/api/v1/auth/session') return { status: 200, json: { user: me } };
      if (apiPath === '/api/v1/public/site') {
        return { status: 200, json: { institutionName: 'Harbour Test Bank', languages: ['en'] } };
      }
      if (apiPath === '/api/v1/health') {
        return { status: 200, json: { status: 'ok', database: 'pglite', isSandbox: true } };
      }
      return { status: 200, json: {} };
    },
    cookies: new Map(),
    language: 'en',
  };
}

describe('renderAppPage', () => {
  it('leaves an address the server matched but the renderer does not to the app, quietly', async () => {
    // Fastify decodes percent-escapes before it picks the page's route; the renderer reads
    // the address as sent. A mismatch is a visitor's choice of spelling, not the server's
    // error: it must not throw (and be logged with a stack trace, once per request, by
    // anyone holding any cookie).
    const asked: string[] = [];
    for (const url of ['/%64ashboard', '/%61dmin', '/%61dmin/users/x', '/admin/%75sers/x']) {
      expect(await renderAppPage(requestFor(url, customer, asked), build), url).toBeNull();
    }
    expect(asked).toEqual([]);
  });

  it('asks nothing of the staff API for a customer or a visitor on a staff page', async () => {
    for (const me of [customer, null]) {
      for (const url of [
        '/admin',
        '/ADMIN?search=a',
        '/admin/users/0190a000-0000-7000-8000-000000000002',
        '/Admin/Users/0190a000-0000-7000-8000-000000000002/',
      ]) {
        const asked: string[] = [];
        expect(await renderAppPage(requestFor(url, me, asked), build), url).toBeNull();
        expect(asked.sort(), url).toEqual([...everyPageAnswers].sort());
      }
    }
  });

  it('leaves staff pages to the app, asking nothing of the staff API, for staff who must set up two-factor', async () => {
    // The app sends them to the set-up on their profile (route-guards.tsx) instead.
    const admin = { ...customer, role: 'admin', isTwoFactorRequired: true } as const;
    for (const url of ['/admin', '/admin/users/0190a000-0000-7000-8000-000000000002']) {
      const asked: string[] = [];
      expect(await renderAppPage(requestFor(url, admin, asked), build), url).toBeNull();
      expect(asked.sort(), url).toEqual([...everyPageAnswers].sort());
    }
  });

  it('asks nothing of the customer API for staff or a visitor on a customer page', async () => {
    for (const me of [{ ...customer, role: 'support' } as const, null]) {
      for (const url of ['/dashboard', '/transfer', '/statements', '/profile']) {
        const asked: string[] = [];
        expect(await renderAppPage(requestFor(url, me, asked), build), url).toBeNull();
        expect(asked.sort(), url).toEqual([...everyPageAnswers].sort());
      }
    }
  });

  it('leaves the visitors’ forms to the app, which sends them on, for anyone signed in', async () => {
    for (const me of [customer, { ...customer, role: 'admin' } as const]) {
      for (const url of ['/signup', '/signin', '/forgot-password']) {
        const asked: string[] = [];
        expect(await renderAppPage(requestFor(url, me, asked), build), url).toBeNull();
        expect(asked.sort(), url).toEqual([...everyPageAnswers].sort());
      }
    }
  });
});
