// The dashboard rendered on the server (docs/decisions/011): the page arrives painted with
// the customer's own data, before any of the app's JavaScript has run, and the app then
// takes it over. Checked with JavaScript off (what the server sent) and on (the takeover).
import { randomUUID } from 'node:crypto';
import type { BrowserContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newCustomer, signUpInContext } from './support/accounts.ts';
import { newContext, screenshot, viewports, watchConsole } from './support/browser.ts';
import { unexpectedProblems } from './support/console.ts';
import { demo, snapshotBothWidths, waitForAppTakeover } from './support/pages.ts';
import { useServerAndBrowser } from './support/suite.ts';

const testTimeoutMs = 60_000;
const answersElementSelector = 'script#coffer-prerendered-answers';

const suite = useServerAndBrowser();

/** A context signed in as a sandbox account; with `javaScriptEnabled: false`, only HTML. */
async function signedInContext(
  account: { email: string; password: string } | null,
  options: {
    javaScriptEnabled: boolean;
    locale?: string;
    timezoneId?: string;
    viewport?: keyof typeof viewports;
  },
): Promise<BrowserContext> {
  const context = await suite.browser.newContext({
    baseURL: suite.server.baseUrl,
    viewport: viewports[options.viewport ?? 'desktop'],
    locale: options.locale ?? 'en-US',
    timezoneId: options.timezoneId,
    javaScriptEnabled: options.javaScriptEnabled,
  });
  suite.closeAfterTest(context);
  if (account) {
    const login = await context.request.post('/api/v1/auth/login', {
      data: { email: account.email, password: account.password },
      headers: { origin: suite.server.baseUrl },
    });
    expect(login.status(), await login.text()).toBe(200);
  }
  return context;
}

/** Quick Pay through the API, as the sender's browser would send it. */
async function quickPay(context: BrowserContext, body: Record<string, string>): Promise<void> {
  const response = await context.request.post('/api/v1/transfers', {
    data: body,
    headers: { origin: suite.server.baseUrl, 'idempotency-key': randomUUID() },
  });
  expect(response.status(), await response.text()).toBe(201);
}

describe('the server-rendered dashboard', () => {
  it(
    'arrives painted with the customer’s balance, account and transactions, and no cache keeps it',
    async () => {
      const context = await signedInContext(demo.alice, { javaScriptEnabled: false });
      const page = await context.newPage();
      const response = await page.goto('/dashboard');
      expect(response?.status()).toBe(200);
      expect(response?.headers()['cache-control']).toBe('no-store');
      await page.getByRole('heading', { level: 1, name: /^Hello, \S/ }).waitFor();
      const balance = page.getByRole('region', { name: 'Available Balance' });
      // Hidden until the customer chooses to show it, on the server as in the app.
      expect(await balance.textContent()).not.toMatch(/\d\.\d\d/);
      await page.getByRole('table', { name: 'Transactions' }).getByText('Salary deposit').waitFor();
      expect(await page.locator(answersElementSelector).count()).toBe(1);
      await snapshotBothWidths(page, 'server-html-dashboard');

      // The choice to show the balance is a cookie, so the server shows it too.
      await context.addCookies([
        { name: 'coffer-balance-visible', value: '1', url: suite.server.baseUrl },
      ]);
      await page.reload();
      await balance.getByText(/\$[\d,]+\.\d\d/).waitFor();
    },
    testTimeoutMs,
  );

  for (const viewport of ['desktop', 'phone'] as const) {
    it(
      `is hydrated by the app on a ${viewport}: the server’s elements stay, no console errors, and the app works`,
      async () => {
        const context = await signedInContext(demo.alice, { javaScriptEnabled: true, viewport });
        const page = await context.newPage();
        const problems = watchConsole(page);
        // The heading and transactions as the server sent them, before any script ran. A
        // hydration that failed would render the page anew, with other elements.
        await page.addInitScript(() => {
          document.addEventListener('DOMContentLoaded', () => {
            const server = window as unknown as { serverElements?: Element[] };
            server.serverElements = Array.from(
              document.querySelectorAll('#root h1, #root table, #root ul[aria-label]'),
            );
          });
        });
        await page.goto('/dashboard');
        await waitForAppTakeover(page);
        // The answers the app started from are consumed, the title is the app's.
        await page.waitForFunction(
          (selector) => document.querySelector(selector) === null && document.title.includes('·'),
          answersElementSelector,
        );
        const kept = await page.evaluate(() => {
          const { serverElements = [] } = window as unknown as { serverElements?: Element[] };
          return {
            named: serverElements.map((element) => {
              const name =
                element.getAttribute('aria-label') ??
                element.querySelector('caption')?.textContent ??
                element.textContent;
              return `${element.tagName.toLowerCase()}: ${name}`;
            }),
            allStillShown: serverElements.every((element) => element.isConnected),
          };
        });
        // The heading, the spending table read to screen readers, and the transactions as a
        // wide table and as the phone's cards: CSS shows the one that fits.
        expect(kept).toEqual({
          named: [
            'h1: Hello, Alice Morgan',
            'table: Spending by month and category',
            'ul: Transactions',
            'table: Transactions',
          ],
          allStillShown: true,
        });
        const table = page.getByRole('table', { name: 'Transactions' });
        const cards = page.getByRole('list', { name: 'Transactions' });
        expect(await table.isVisible()).toBe(viewport === 'desktop');
        expect(await cards.isVisible()).toBe(viewport === 'phone');

        expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
        await page.getByRole('button', { name: 'Show balance' }).click();
        await page
          .getByRole('region', { name: 'Available Balance' })
          .getByText(/\$[\d,]+\.\d\d/)
          .waitFor();
        await page.getByRole('button', { name: 'Quick Pay' }).click();
        await page.getByRole('dialog', { name: 'Quick Pay' }).waitFor();
        await screenshot(page, `dashboard-hydrated-${viewport}`);
        expect(unexpectedProblems(problems)).toEqual([]);
      },
      testTimeoutMs,
    );
  }

  it(
    'is rendered anew, not hydrated, when the browser shows dates otherwise than the server wrote them',
    async () => {
      // A first visit from another time zone: the server has no time zone cookie yet.
      const context = await signedInContext(demo.alice, {
        javaScriptEnabled: true,
        timezoneId: 'Pacific/Auckland',
      });
      const page = await context.newPage();
      const problems = watchConsole(page);
      await page.addInitScript(() => {
        document.addEventListener('DOMContentLoaded', () => {
          const server = window as unknown as { serverHeading?: Element | null };
          server.serverHeading = document.querySelector('#root h1');
        });
      });
      await page.goto('/dashboard');
      await waitForAppTakeover(page);
      const isSameHeading = await page.evaluate(() => {
        const { serverHeading } = window as unknown as { serverHeading?: Element | null };
        return Boolean(serverHeading) && serverHeading === document.querySelector('#root h1');
      });
      expect(isSameHeading).toBe(false);
      await page.getByRole('button', { name: 'Show balance' }).click();
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    testTimeoutMs,
  );

  it(
    'keeps text from other people as text: a note cannot end the embedded answers',
    async () => {
      const sender = await signedInContext(demo.alice, { javaScriptEnabled: false });
      const recipientContext = suite.closeAfterTest(
        await newContext(suite.browser, { baseUrl: suite.server.baseUrl, viewport: 'desktop' }),
      );
      const recipient = await signUpInContext(
        recipientContext,
        suite.server.baseUrl,
        newCustomer(),
      );
      const note = '</script><script src="/app-start.js" data-app-entry="/x.js"></script><!--';
      await quickPay(sender, { recipient: recipient.email, amount: '1.00', note });

      const page = await recipientContext.newPage();
      const problems = watchConsole(page);
      const html = await (await page.request.get('/dashboard')).text();
      expect(html).not.toContain(note);
      await page.goto('/dashboard');
      await page.getByRole('button', { name: 'Show balance' }).click();
      await page.getByRole('table', { name: 'Transactions' }).getByText(note).waitFor();
      expect(await page.locator('script[data-app-entry="/x.js"]').count()).toBe(0);
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    testTimeoutMs,
  );

  it(
    'shows times in the browser’s language and time zone, which the app tells the server',
    async () => {
      const region = { locale: 'de-DE', timezoneId: 'Asia/Tokyo' };
      const app = await signedInContext(demo.alice, { javaScriptEnabled: true, ...region });
      // Any page of the app remembers the browser's time zone in a cookie.
      const appPage = await app.newPage();
      await appPage.goto('/profile');
      // The server paints the profile too (ADR 027): wait for the app, not the heading.
      await waitForAppTakeover(appPage);
      const transactions = await (await app.request.get('/api/v1/wallet/transactions')).json();
      const createdAt: string = transactions.items[0].createdAt;

      const html = await signedInContext(null, { javaScriptEnabled: false, ...region });
      await html.addCookies(await app.cookies());
      const page = await html.newPage();
      await page.goto('/dashboard');
      const tokyoTime = new Intl.DateTimeFormat('de-DE', {
        dateStyle: 'short',
        timeStyle: 'short',
        timeZone: region.timezoneId,
      }).format(new Date(createdAt));
      // The browser asks for German, so the page is in German: its transactions are "Transaktionen".
      await page
        .getByRole('table', { name: 'Transaktionen' })
        .getByText(tokyoTime)
        .first()
        .waitFor();
    },
    testTimeoutMs,
  );

  it(
    'is left to the app for a visitor and for staff',
    async () => {
      const visitor = await signedInContext(null, { javaScriptEnabled: false });
      const visitorPage = await visitor.newPage();
      await visitorPage.goto('/dashboard');
      expect(await visitorPage.locator(answersElementSelector).count()).toBe(0);
      expect(await visitorPage.locator('#root *').count()).toBe(0);

      const staff = await signedInContext(demo.admin, { javaScriptEnabled: false });
      const staffPage = await staff.newPage();
      await staffPage.goto('/dashboard');
      expect(await staffPage.locator(answersElementSelector).count()).toBe(0);
    },
    testTimeoutMs,
  );
});
