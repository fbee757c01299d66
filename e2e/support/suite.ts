import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { launchBrowser } from './browser.ts';
import { type RunningServer, type ServerOptions, startServer } from './server.ts';

const startUpTimeoutMs = 120_000;

export type ServerAndBrowser = {
  readonly server: RunningServer;
  readonly browser: Browser;
  /** Closes the context when the current test ends. */
  closeAfterTest(context: BrowserContext): BrowserContext;
};

/**
 * A sandbox server and Chromium for one test file: started before its tests and stopped
 * after them; the browser contexts a test opens are closed when it ends.
 */
export function useServerAndBrowser(options: ServerOptions = {}): ServerAndBrowser {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    server = await startServer(options);
    browser = await launchBrowser();
  }, startUpTimeoutMs);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  }, startUpTimeoutMs);

  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
  });

  return {
    get server() {
      if (!server) throw new Error('the server starts before the first test');
      return server;
    },
    get browser() {
      if (!browser) throw new Error('the browser starts before the first test');
      return browser;
    },
    closeAfterTest(context) {
      contexts.push(context);
      return context;
    },
  };
}
