// Sign-up, sign-in and forgot password, rendered on the server for a visitor
// (docs/decisions/056): the form is in the HTML, labelled, in the visitor's language, and
// can be typed into before the app's code has arrived; the app hydrates it without a
// mismatch and keeps what was typed, and a submit made before it started is sent once it has.
import type { BrowserContext, Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newCustomer, signUpInContext } from './support/accounts.ts';
import { type ConsoleProblems, newContext, watchConsole } from './support/browser.ts';
import { unexpectedProblems } from './support/console.ts';
import { pathOf, waitForAppTakeover, wordsAskedBy } from './support/pages.ts';
import { useServerAndBrowser } from './support/suite.ts';
import { waitUntil } from './support/wait.ts';

/**
 * The page's window holding the form the server sent, so that after hydration the test can
 * ask whether the form shown is still that one (hydrated, not drawn anew).
 */
type WindowHoldingServerForm = Window & { serverForm?: Element | null };

const testTimeoutMs = 90_000;
const answersElementSelector = 'script#coffer-prerendered-answers';
/** The app's entry: held back, the page stays the server's until it is let through. */
const appEntryPattern = /\/assets\/main-[^/]*\.js$/;
const acceptTermsLabel = 'I have read and accept the terms of service and the privacy notice';

const suite = useServerAndBrowser();

async function visitorContext(options: {
  javaScriptEnabled: boolean;
  language?: string;
}): Promise<BrowserContext> {
  const context = await suite.browser.newContext({
    baseURL: suite.server.baseUrl,
    // The browser's language, which it sends as Accept-Language.
    locale: options.language ?? 'en-US',
    javaScriptEnabled: options.javaScriptEnabled,
  });
  return suite.closeAfterTest(context);
}

/** Holds the app's entry script back until `release` is called. */
async function holdAppEntry(page: Page): Promise<{ release: () => void }> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(appEntryPattern, async (route: Route) => {
    await released;
    await route.continue();
  });
  return { release };
}

/** Whether the app's entry has been asked for yet (app-start.js asks after the first paint). */
function entryRequested(page: Page): () => boolean {
  let isRequested = false;
  page.on('request', (request) => {
    if (appEntryPattern.test(new URL(request.url()).pathname)) isRequested = true;
  });
  return () => isRequested;
}

/**
 * Opens `pagePath` in a fresh context with the app's entry held back, once the page has
 * painted and asked for it: what is done next is done before the app has started.
 */
async function openWithAppHeld(
  pagePath: string,
  viewport: 'desktop' | 'phone',
  beforeOpening: (page: Page) => Promise<unknown> = async () => {},
) {
  const context = suite.closeAfterTest(
    await newContext(suite.browser, { baseUrl: suite.server.baseUrl, viewport }),
  );
  const page = await context.newPage();
  const problems = watchConsole(page);
  const isEntryRequested = entryRequested(page);
  const entry = await holdAppEntry(page);
  await beforeOpening(page);
  await page.goto(pagePath);
  await waitUntil('the app asks for its entry', async () => isEntryRequested());
  return { page, problems, releaseApp: entry.release };
}

/** The dashboard a customer lands on once signed in or up, with no console problem on the way. */
async function landsOnDashboard(page: Page, username: string, problems: ConsoleProblems) {
  await waitUntil('the customer is sent on', async () => pathOf(page) === '/dashboard');
  await page.getByRole('heading', { level: 1, name: `Hello, ${username}` }).waitFor();
  expect(unexpectedProblems(problems)).toEqual([]);
}

describe('the visitors’ forms rendered on the server', () => {
  it(
    'are in the HTML, labelled, without JavaScript, in the visitor’s language',
    async () => {
      const context = await visitorContext({ javaScriptEnabled: false });
      const page = await context.newPage();
      const signup = await page.goto('/signup');
      expect(signup?.status()).toBe(200);
      expect(signup?.headers()['cache-control']).toBe('no-store');
      await page.getByRole('heading', { level: 1, name: 'Create account' }).waitFor();
      for (const label of ['Username', 'Email', 'Phone number', 'Country']) {
        expect(await page.getByLabel(label, { exact: true }).count(), label).toBe(1);
      }
      expect(await page.getByLabel('Password', { exact: true }).count()).toBe(1);
      expect(await page.getByLabel(acceptTermsLabel).count()).toBe(1);
      expect(await page.getByRole('button', { name: 'Register' }).count()).toBe(1);
      // The country is the browser's own select, its choice already made.
      expect(await page.getByLabel('Country').inputValue()).toBe('US');
      expect(await page.locator(answersElementSelector).count()).toBe(1);
      expect(await page.locator('#root[inert]').count()).toBe(0);

      await page.goto('/signin');
      await page.getByRole('heading', { level: 1, name: 'Login' }).waitFor();
      expect(await page.getByLabel('Email').count()).toBe(1);
      expect(await page.getByLabel('Password', { exact: true }).count()).toBe(1);
      expect(await page.getByRole('button', { name: 'Login', exact: true }).count()).toBe(1);

      await page.goto('/forgot-password');
      await page.getByRole('heading', { level: 1, name: 'Forgot password' }).waitFor();
      expect(await page.getByLabel('Email').count()).toBe(1);

      // A German browser gets the page in German, with its html lang.
      const german = await visitorContext({ javaScriptEnabled: false, language: 'de-DE' });
      const germanPage = await german.newPage();
      await germanPage.goto('/signin');
      expect(await germanPage.locator('html').getAttribute('lang')).toBe('de');
      // The catalog's German for "Login" (features/auth/locales/de.po).
      await germanPage.getByRole('heading', { level: 1, name: 'Anmelden' }).waitFor();
      expect(await germanPage.locator(answersElementSelector).count()).toBe(1);
    },
    testTimeoutMs,
  );

  it(
    'takes typing before the app’s script arrives, and signs up with it after hydration',
    async () => {
      const { page, problems, releaseApp } = await openWithAppHeld(
        '/signup',
        'desktop',
        (opening) =>
          opening.addInitScript(() => {
            document.addEventListener('DOMContentLoaded', () => {
              (window as WindowHoldingServerForm).serverForm = document.querySelector('#root form');
            });
          }),
      );
      expect(await page.locator('#root[data-server-rendered]').count()).toBe(1);

      // Everything typed and chosen while the app's code is still on its way.
      const customer = newCustomer({ country: 'DE', phone: '+4930901820' });
      await page.getByLabel('Username').fill(customer.username);
      await page.getByLabel('Email').fill(customer.email);
      await page.getByLabel('Phone number').fill(customer.phone);
      await page.getByLabel('Password', { exact: true }).fill(customer.password);
      await page.getByLabel('Country').selectOption('DE');
      await page.getByLabel(acceptTermsLabel).check();
      expect(await page.locator('#root[data-server-rendered]').count()).toBe(1);

      releaseApp();
      await waitForAppTakeover(page);
      // Hydrated, not drawn anew: the very form the server sent, with what was typed.
      expect(
        await page.evaluate(
          () => (window as WindowHoldingServerForm).serverForm?.isConnected ?? false,
        ),
      ).toBe(true);
      expect(await page.getByLabel('Username').inputValue()).toBe(customer.username);
      expect(await page.getByLabel('Email').inputValue()).toBe(customer.email);
      expect(await page.getByLabel('Password', { exact: true }).inputValue()).toBe(
        customer.password,
      );
      expect(await page.getByLabel('Country').inputValue()).toBe('DE');
      expect(await page.getByLabel(acceptTermsLabel).isChecked()).toBe(true);
      // The app knows them too: the country's currency, and the strength of the password.
      await page.getByText('Your wallet will be in EUR.', { exact: false }).waitFor();
      await page.getByText('Strength:', { exact: false }).waitFor();

      await page.getByRole('button', { name: 'Register' }).click();
      await landsOnDashboard(page, customer.username, problems);
    },
    testTimeoutMs,
  );

  it(
    'sends a sign-in submitted before the app started, once it has',
    async () => {
      // A customer to sign in as, made in a context of its own.
      const maker = await visitorContext({ javaScriptEnabled: true });
      const customer = await signUpInContext(maker, suite.server.baseUrl);

      const { page, problems, releaseApp } = await openWithAppHeld('/signin', 'phone');
      await page.getByLabel('Email').fill(customer.email);
      await page.getByLabel('Password', { exact: true }).fill(customer.password);
      await page.getByLabel('Password', { exact: true }).press('Enter');
      // Held: the browser's own submit would have reloaded the page and lost the form.
      expect(pathOf(page)).toBe('/signin');
      expect(await page.getByLabel('Email').inputValue()).toBe(customer.email);

      releaseApp();
      await landsOnDashboard(page, customer.username, problems);
    },
    testTimeoutMs,
  );

  it(
    'is the app’s own page for someone signed in, who is sent on',
    async () => {
      const context = await visitorContext({ javaScriptEnabled: true });
      await signUpInContext(context, suite.server.baseUrl);
      const html = await (
        await context.request.get('/signin', { headers: { accept: 'text/html' } })
      ).text();
      expect(html).not.toContain('id="coffer-prerendered-answers"');
      const page = await context.newPage();
      await page.goto('/signin');
      await waitUntil('the app sends the customer on', async () => pathOf(page) === '/dashboard');
    },
    testTimeoutMs,
  );

  it(
    "refuses an empty sign-in in German, with the contracts' words asked for only at the first input",
    async () => {
      const context = await visitorContext({ javaScriptEnabled: true, language: 'de-DE' });
      const page = await context.newPage();
      const problems = watchConsole(page);
      // The contracts' catalog is the one script that has the refusal's German.
      const germanRefusal = 'Bitte geben Sie E-Mail-Adresse und Passwort ein';
      let contractWordsArrived = false;
      page.on('response', (response) => {
        if (!(response.headers()['content-type'] ?? '').includes('javascript')) return;
        response
          .text()
          .then((body) => {
            if (body.includes(germanRefusal)) contractWordsArrived = true;
          })
          .catch(() => undefined);
      });
      await page.goto('/signin', { waitUntil: 'networkidle' });
      await waitForAppTakeover(page);
      expect(contractWordsArrived).toBe(false);

      await page.getByLabel('E-Mail', { exact: true }).focus();
      await waitUntil("the contracts' words arrive", async () => contractWordsArrived);
      await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
      await page.getByText(germanRefusal).first().waitFor();
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    testTimeoutMs,
  );

  it(
    'sends a German visitor the words of the code each page loads, and no others',
    async () => {
      const context = await visitorContext({ javaScriptEnabled: true, language: 'de-DE' });
      const page = await context.newPage();
      const problems = watchConsole(page);
      const wordsAsked = wordsAskedBy(page);
      const signin = await page.goto('/signin', { waitUntil: 'networkidle' });
      // The server names them with the page's code: they do not wait for the app to run.
      expect(await signin?.text()).toContain('/assets/words/features.auth.pages.signin-page.de-');
      await waitForAppTakeover(page);
      expect(wordsAsked.sort()).toEqual([
        'app.public-layout.de',
        'features.auth.pages.signin-page.de',
        'main.de',
      ]);

      // Another page brings its own words only; the frame's are there already.
      wordsAsked.length = 0;
      await page.locator('main a[href="/signup"]').first().click();
      await page.getByLabel('Benutzername').waitFor();
      expect(wordsAsked).toEqual(['features.auth.pages.signup-page.de']);
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    testTimeoutMs,
  );
});
