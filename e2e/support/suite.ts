import type { SiteFile } from '@coffer/contracts/site-file';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import {
  type ConsoleProblems,
  launchBrowser,
  newContext,
  type viewports,
  watchConsole,
} from './browser.ts';
import { type MailSink, startMailSink } from './mail-sink.ts';
import { type RunningServer, type ServerOptions, startServer } from './server.ts';
import { writeSiteFile } from './site-file.ts';

/** The server's own start limit (server.ts) and Chromium's launch. */
const startUpTimeoutMs = 210_000;

export type SuiteOptions = ServerOptions & {
  /** Mail goes to a real SMTP sink (SMTP_URL) the tests read, instead of the dev outbox. */
  hasMailSink?: boolean;
  /** The operator's site file (COFFER_SITE_FILE), written before the server starts. */
  site?: SiteFile;
};

export type ServerAndBrowser = {
  readonly server: RunningServer;
  readonly browser: Browser;
  /** Only with `hasMailSink`. */
  readonly mailSink: MailSink;
  /** Closes the context when the current test ends. */
  closeAfterTest(context: BrowserContext): BrowserContext;
  /** A page in a fresh context (closed when the test ends), its console watched. */
  openPage(viewport?: keyof typeof viewports): Promise<OpenedPage>;
};

export type OpenedPage = { context: BrowserContext; page: Page; problems: ConsoleProblems };

/**
 * A sandbox server and Chromium for one test file: started before its tests and stopped
 * after them; the browser contexts a test opens are closed when it ends.
 */
export function useServerAndBrowser(options: SuiteOptions = {}): ServerAndBrowser {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  let mailSink: MailSink | undefined;
  let siteFile: ReturnType<typeof writeSiteFile> | undefined;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    const env: Record<string, string> = {};
    if (options.hasMailSink) {
      mailSink = await startMailSink();
      env.SMTP_URL = mailSink.url;
    }
    if (options.site) {
      siteFile = writeSiteFile(options.site);
      env.COFFER_SITE_FILE = siteFile.path;
    }
    server = await startServer({
      env: { ...env, ...options.env },
      ...(options.publicHost ? { publicHost: options.publicHost } : {}),
    });
    browser = await launchBrowser();
  }, startUpTimeoutMs);

  afterAll(async () => {
    for (const context of contexts.splice(0)) await context.close();
    await browser?.close();
    await server?.stop();
    await mailSink?.stop();
    siteFile?.remove();
  }, startUpTimeoutMs);

  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
  });

  const serverAndBrowser: ServerAndBrowser = {
    get server() {
      if (!server) throw new Error('the server starts before the first test');
      return server;
    },
    get browser() {
      if (!browser) throw new Error('the browser starts before the first test');
      return browser;
    },
    get mailSink() {
      if (!mailSink) throw new Error('the mail sink starts before the first test: hasMailSink');
      return mailSink;
    },
    closeAfterTest(context) {
      contexts.push(context);
      return context;
    },
    async openPage(viewport = 'desktop') {
      const { browser, server } = serverAndBrowser;
      const context = serverAndBrowser.closeAfterTest(
        await newContext(browser, { baseUrl: server.baseUrl, viewport }),
      );
      const page = await context.newPage();
      return { context, page, problems: watchConsole(page) };
    },
  };
  return serverAndBrowser;
}
