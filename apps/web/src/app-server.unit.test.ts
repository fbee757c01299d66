import { describe, expect, it } from 'vitest';
import { renderAppPage } from './app-server.tsx';

const build = {
  template:
    '<!doctype html><html><head><title>x</title></head><body><div id="root"><!--app-page--></div><!--app-answers--></body></html>',
  manifest: {},
};

describe('renderAppPage', () => {
  it('leaves an address the server matched but the renderer does not to the app, quietly', async () => {
    // Fastify decodes percent-escapes and may ignore case or duplicate slashes before it
    // picks the page's route; the renderer reads the address as sent. A mismatch is a
    // visitor's choice of spelling, not the server's error: it must not throw (and be
    // logged with a stack trace, once per request, by anyone holding any cookie).
    const asked: string[] = [];
    for (const url of ['/%64ashboard', '/%61dmin', '/%61dmin/users/x', '/admin/%75sers/x']) {
      const page = await renderAppPage(
        {
          url,
          callApi: async (apiPath) => {
            asked.push(apiPath);
            return { status: 401, json: {} };
          },
          cookies: new Map(),
          acceptLanguage: undefined,
        },
        build,
      );
      expect(page, url).toBeNull();
    }
    expect(asked).toEqual([]);
  });
});
