// The pages besides the dashboard that the server renders (docs/decisions/027): each arrives
// painted with the signed-in user's own data before any of the app's JavaScript has run,
// and the app then hydrates it without a mismatch. A page is rendered only for whom it is
// for: a customer asking for a staff page gets the app's own page, which says no.
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newCustomer, signUpInContext } from './support/accounts.ts';
import { screenshot, type viewports, watchConsole } from './support/browser.ts';
import { unexpectedProblems } from './support/console.ts';
import { demo, snapshotBothWidths, waitForAppTakeover } from './support/pages.ts';
import { useServerAndBrowser } from './support/suite.ts';

const testTimeoutMs = 60_000;
const answersElementSelector = 'script#coffer-prerendered-answers';

const suite = useServerAndBrowser();

type Account = { email: string; password: string };

async function signedInContext(
  account: Account,
  options: { javaScriptEnabled: boolean; viewport?: keyof typeof viewports },
): Promise<BrowserContext> {
  const context = await suite.browser.newContext({
    baseURL: suite.server.baseUrl,
    viewport: options.viewport === 'phone' ? { width: 390, height: 844 } : undefined,
    locale: 'en-US',
    javaScriptEnabled: options.javaScriptEnabled,
  });
  suite.closeAfterTest(context);
  const login = await context.request.post('/api/v1/auth/login', {
    data: { email: account.email, password: account.password },
    headers: { origin: suite.server.baseUrl },
  });
  expect(login.status(), await login.text()).toBe(200);
  return context;
}

/** The answers a page was rendered from, as embedded in its HTML (none: the app's page). */
function embeddedAnswers(html: string): Record<string, { status: number; json: unknown }> | null {
  const match =
    /<script type="application\/json" id="coffer-prerendered-answers">(.*?)<\/script>/s.exec(html);
  return match?.[1] ? JSON.parse(match[1]) : null;
}

/** The page's HTML exactly as the server sends it to this context's browser. */
async function servedHtml(context: BrowserContext, path: string): Promise<string> {
  const response = await context.request.get(path, { headers: { accept: 'text/html' } });
  expect(response.status()).toBe(200);
  return response.text();
}

/** Alice's page in the back office, found as staff find her. */
async function alicePath(): Promise<string> {
  const staff = await signedInContext(demo.admin, { javaScriptEnabled: false });
  const answer = await staff.request.get(`/api/v1/admin/users?search=${demo.alice.email}`);
  const { items } = (await answer.json()) as { items: { id: string }[] };
  const alice = items[0] ?? expect.fail('Alice is a sandbox customer');
  return `/admin/users/${alice.id}`;
}

/** The server's `<h1>` and its top as first drawn, kept on `window` before any app code ran. */
type ServerHeading = {
  serverHeading?: Element | null;
  serverHeadingTop?: number;
  serverLists?: Element[];
};

/** The page's tables and card lists (components/data-table.tsx, the statement preview). */
const listsSelector = '#root table[aria-label], #root ul[aria-label]';

type RenderedPage = {
  name: string;
  account: Account;
  path: () => Promise<string>;
  /** Something only the user's own data draws. */
  drawn: (page: Page) => Promise<void>;
};

const renderedPages: RenderedPage[] = [
  {
    name: 'transfer',
    account: demo.alice,
    path: async () => '/transfer',
    drawn: async (page) => {
      await page.getByRole('heading', { level: 1, name: 'Transfer and withdraw' }).waitFor();
      await page.getByRole('button', { name: 'Continue' }).waitFor();
    },
  },
  {
    name: 'statements',
    account: demo.alice,
    path: async () => '/statements',
    drawn: async (page) => {
      await page.getByRole('heading', { level: 1, name: 'Statements' }).waitFor();
      await page.getByText('Opening balance').first().waitFor();
    },
  },
  {
    name: 'profile',
    account: demo.alice,
    path: async () => '/profile',
    drawn: async (page) => {
      await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
      await page.getByText(demo.alice.email).filter({ visible: true }).first().waitFor();
    },
  },
  {
    name: 'customer list',
    account: demo.admin,
    path: async () => '/admin',
    drawn: async (page) => {
      await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
      // The table or, on a phone, the cards: the server draws both, CSS shows one.
      await page.getByText(demo.alice.email).filter({ visible: true }).first().waitFor();
    },
  },
  {
    name: 'customer detail',
    account: demo.admin,
    path: alicePath,
    drawn: async (page) => {
      await page.getByRole('heading', { level: 1, name: demo.alice.username }).waitFor();
      await page.getByRole('tab', { name: 'Transactions' }).waitFor();
    },
  },
];

describe('the server-rendered pages', () => {
  for (const rendered of renderedPages) {
    it(
      `${rendered.name}: arrives painted with the user's data, and no cache keeps it`,
      async () => {
        const path = await rendered.path();
        const context = await signedInContext(rendered.account, { javaScriptEnabled: false });
        const page = await context.newPage();
        const response = await page.goto(path);
        expect(response?.status()).toBe(200);
        expect(response?.headers()['cache-control']).toBe('no-store');
        await rendered.drawn(page);
        expect(await page.locator(answersElementSelector).count()).toBe(1);
        await snapshotBothWidths(page, `server-html-${rendered.name.replace(' ', '-')}`);
      },
      testTimeoutMs,
    );

    for (const viewport of ['desktop', 'phone'] as const) {
      it(
        `${rendered.name}: is hydrated by the app on a ${viewport}, with no console errors`,
        async () => {
          const path = await rendered.path();
          const context = await signedInContext(rendered.account, {
            javaScriptEnabled: true,
            viewport,
          });
          const page = await context.newPage();
          const problems = watchConsole(page);
          // The server's heading, and where it was drawn: a hydration that failed would
          // render the page anew, and anything the server left out above it would push it.
          await page.addInitScript((selector) => {
            document.addEventListener('DOMContentLoaded', () => {
              const server = window as unknown as ServerHeading;
              server.serverHeading = document.querySelector('#root h1');
              server.serverHeadingTop = server.serverHeading?.getBoundingClientRect().top;
              server.serverLists = Array.from(document.querySelectorAll(selector));
            });
          }, listsSelector);
          await page.goto(path);
          await waitForAppTakeover(page);
          await page.waitForFunction(
            (selector) => document.querySelector(selector) === null,
            answersElementSelector,
          );
          const heading = await page.evaluate(() => {
            const { serverHeading, serverHeadingTop } = window as unknown as ServerHeading;
            return {
              isKept: Boolean(serverHeading?.isConnected),
              hasMoved: serverHeading?.getBoundingClientRect().top !== serverHeadingTop,
            };
          });
          expect(heading).toEqual({ isKept: true, hasMoved: false });
          // Once the app knows the screen, each table is drawn once: as a table or as cards,
          // the very one the server drew (dropping the other must not draw it anew).
          await page.waitForFunction((selector) => {
            const labels = Array.from(document.querySelectorAll(selector), (element) =>
              element.getAttribute('aria-label'),
            );
            return new Set(labels).size === labels.length;
          }, listsSelector);
          const listsDrawnAnew = await page.evaluate((selector) => {
            const { serverLists = [] } = window as unknown as ServerHeading;
            return Array.from(document.querySelectorAll(selector))
              .filter((element) => !serverLists.includes(element))
              .map((element) => element.getAttribute('aria-label'));
          }, listsSelector);
          expect(listsDrawnAnew).toEqual([]);
          await rendered.drawn(page);
          expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
          await screenshot(page, `server-rendered-${rendered.name.replace(' ', '-')}-${viewport}`);
          expect(unexpectedProblems(problems)).toEqual([]);
        },
        testTimeoutMs,
      );
    }
  }

  it(
    'stays a plain HTML page, its links working, when the app’s code cannot load',
    async () => {
      const context = await signedInContext(demo.alice, { javaScriptEnabled: true });
      const page = await context.newPage();
      await page.route(/\/assets\/main-[^/]*\.js$/, (route) => route.abort());
      await page.goto('/transfer');
      // Inert while the app loads (public/app-start.js), then its links work as HTML.
      await page.waitForFunction(() => !document.getElementById('root')?.hasAttribute('inert'));
      expect(await page.locator('#root[data-server-rendered]').count()).toBe(1);
      await page.getByRole('link', { name: 'Statements' }).click();
      await page.getByRole('heading', { level: 1, name: 'Statements' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/statements');
    },
    testTimeoutMs,
  );

  it(
    'renders a staff page only for staff: a customer gets the app, which refuses',
    async () => {
      const context = await signedInContext(demo.alice, { javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto('/admin');
      expect(await page.locator(answersElementSelector).count()).toBe(0);
      expect(await page.getByRole('heading', { level: 1, name: 'Users' }).count()).toBe(0);
      const staff = await signedInContext(demo.admin, { javaScriptEnabled: false });
      const staffPage = await staff.newPage();
      await staffPage.goto('/transfer');
      expect(await staffPage.locator(answersElementSelector).count()).toBe(0);
    },
    testTimeoutMs,
  );

  it(
    'never renders a customer’s page in the back office for a customer or a visitor',
    async () => {
      const path = await alicePath();
      const bruno = await signedInContext(demo.bruno, { javaScriptEnabled: false });
      const visitor = await suite.browser.newContext({ baseURL: suite.server.baseUrl });
      suite.closeAfterTest(visitor);
      for (const context of [bruno, visitor]) {
        const html = await servedHtml(context, path);
        expect(embeddedAnswers(html)).toBeNull();
        expect(html).not.toContain(demo.alice.email);
        expect(html).not.toContain(demo.alice.username);
      }
    },
    testTimeoutMs,
  );

  it(
    'renders each customer’s statements from their own answers, even when rendered at once',
    async () => {
      const alice = await signedInContext(demo.alice, { javaScriptEnabled: false });
      const newcomer = await suite.browser.newContext({ baseURL: suite.server.baseUrl });
      suite.closeAfterTest(newcomer);
      const customer = await signUpInContext(newcomer, suite.server.baseUrl, newCustomer());
      const accountNumberOf = async (context: BrowserContext) => {
        const wallet = await context.request.get('/api/v1/wallet');
        return ((await wallet.json()) as { accountNumber: string }).accountNumber;
      };
      // The holder's name as the statement prints it: Alice's legal name; the newcomer, never
      // verified, by their username.
      const owners = [
        { context: alice, name: demo.alice.legalName, accountNumber: await accountNumberOf(alice) },
        {
          context: newcomer,
          name: customer.username,
          accountNumber: await accountNumberOf(newcomer),
        },
      ];
      // Renders that overlap each read their own request's answers (and dates).
      const pages = await Promise.all(
        [...owners, ...owners, ...owners].map(async (owner) => ({
          owner,
          html: await servedHtml(owner.context, '/statements'),
        })),
      );
      for (const { owner, html } of pages) {
        const answers = embeddedAnswers(html) ?? expect.fail('the page is server-rendered');
        const statement = Object.entries(answers).find(([apiPath]) =>
          apiPath.startsWith('/api/v1/statements'),
        )?.[1];
        expect(statement?.json).toMatchObject({
          accountHolder: owner.name,
          accountNumber: owner.accountNumber,
        });
        const other = owners.find((each) => each !== owner) ?? expect.fail('two owners');
        expect(html).not.toContain(other.accountNumber);
        expect(html).not.toContain(other.name);
      }
    },
    testTimeoutMs,
  );
});
