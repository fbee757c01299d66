import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newCustomer, signUpInContext, type TestCustomer } from './support/accounts.ts';
import {
  type ConsoleProblems,
  newContext,
  screenshot,
  viewports,
  watchConsole,
} from './support/browser.ts';
import { unexpectedProblems } from './support/console.ts';
import { hasNoHorizontalScroll, openDashboard, waitForAppTakeover } from './support/pages.ts';
import { useServerAndBrowser } from './support/suite.ts';
import { waitUntil } from './support/wait.ts';

const testTimeoutMs = 60_000;

const suite = useServerAndBrowser();

async function openPage(
  viewport: keyof typeof viewports,
  options: { isSignedIn?: boolean } = {},
): Promise<{ page: Page; problems: ConsoleProblems; customer: TestCustomer }> {
  const context = suite.closeAfterTest(
    await newContext(suite.browser, { baseUrl: suite.server.baseUrl, viewport }),
  );
  const customer = newCustomer();
  if (options.isSignedIn) await signUpInContext(context, suite.server.baseUrl, customer);
  const page = await context.newPage();
  return { page, problems: watchConsole(page), customer };
}

const landingHeading = 'Banking you can check, from Coffer';

async function isOnScreen(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  return box !== null && box.width > 0 && box.x >= 0 && box.x + box.width <= width;
}

describe('the web app', () => {
  it(
    'shows the dashboard in the signed-in shell, without the server’s internals',
    async () => {
      const { page, problems, customer } = await openPage('desktop', { isSignedIn: true });
      await openDashboard(page);

      await page.getByRole('heading', { level: 1, name: `Hello, ${customer.username}` }).waitFor();
      const topBar = page.getByRole('banner');
      await topBar.getByRole('link', { name: 'Coffer home' }).waitFor();
      await topBar.getByRole('button', { name: 'Notifications' }).waitFor();
      await topBar.getByRole('button', { name: 'User menu' }).waitFor();
      const sideMenu = page.getByRole('navigation', { name: 'Main' });
      const dashboardLink = sideMenu.getByRole('link', { name: 'Dashboard' });
      expect(await dashboardLink.getAttribute('href')).toBe('/dashboard');
      expect(await dashboardLink.getAttribute('aria-current')).toBe('page');
      expect(await isOnScreen(page, sideMenu)).toBe(true);

      await page.getByRole('region', { name: 'Available Balance' }).waitFor();
      // Which database the server uses, and its mode, are staff's business (the health
      // endpoint); the sandbox label says all a customer needs.
      expect(await page.getByRole('region', { name: 'System status' }).count()).toBe(0);
      expect(await page.getByRole('main').textContent()).not.toMatch(/PGlite|PostgreSQL/);
      await page.getByRole('note', { name: 'Sandbox' }).waitFor();
      expect(await page.title()).toBe('Dashboard · Coffer');

      await screenshot(page, 'dashboard-desktop');

      await topBar.getByRole('button', { name: 'Notifications' }).click();
      await page.getByRole('dialog').getByText('You have no notifications.').waitFor();
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'hidden', timeout: 2_000 });
      expect(
        await topBar
          .getByRole('button', { name: 'Notifications' })
          .evaluate((element) => element === document.activeElement),
      ).toBe(true);
      expect(problems.messages).toEqual([]);
    },
    testTimeoutMs,
  );

  it(
    'answers an unknown route with a 404 page whose link leads home',
    async () => {
      const { page, problems } = await openPage('desktop');
      await page.goto('/no-such-page');

      await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
      await page.getByText('There is no page at this address.').waitFor();
      await page.getByRole('note', { name: 'Sandbox' }).waitFor();
      expect(await page.title()).toBe('Page not found · Coffer');
      await screenshot(page, 'not-found-desktop');

      await page.getByRole('link', { name: 'Go to the home page' }).click();
      await page.getByRole('heading', { level: 1, name: landingHeading }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/');
      expect(await page.title()).toBe('Coffer');
      await page.getByRole('note', { name: 'Sandbox' }).waitFor();

      await page.getByRole('main').getByRole('link', { name: 'Create Account' }).click();
      await page.getByRole('heading', { level: 1, name: 'Create account' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/signup');
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    testTimeoutMs,
  );

  it(
    'matches routes case-insensitively and rewrites the address to the canonical path',
    async () => {
      const { page, problems, customer } = await openPage('desktop', { isSignedIn: true });
      await page.goto('/DashBoard');

      await page.getByRole('heading', { level: 1, name: `Hello, ${customer.username}` }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/dashboard');
      const dashboardLink = page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Dashboard' });
      expect(await dashboardLink.getAttribute('aria-current')).toBe('page');
      expect(await page.getByRole('heading', { name: 'Page not found' }).count()).toBe(0);
      expect(problems.messages).toEqual([]);
    },
    testTimeoutMs,
  );

  it(
    'switches to the dark colour scheme from the user menu and remembers it',
    async () => {
      const { page, problems, customer } = await openPage('desktop', { isSignedIn: true });
      const greeting = page.getByRole('heading', { level: 1, name: `Hello, ${customer.username}` });
      await openDashboard(page);
      await greeting.waitFor();
      const colorScheme = () =>
        page.evaluate(() => document.documentElement.dataset.mantineColorScheme);
      expect(await colorScheme()).toBe('light');

      await page.getByRole('button', { name: 'User menu' }).click();
      const menu = page.getByRole('menu');
      await menu.getByText('Appearance').waitFor();
      await menu.getByText(customer.username).waitFor();
      expect(await menu.getByRole('menuitem', { name: 'Logout' }).count()).toBe(1);
      expect(await menu.getByRole('menuitem', { name: 'Light (selected)' }).count()).toBe(1);
      await menu.getByRole('menuitem', { name: 'Dark', exact: true }).click();
      await waitUntil('the page turns dark', async () => (await colorScheme()) === 'dark');

      await page.reload();
      await waitForAppTakeover(page);
      await greeting.waitFor();
      await page.getByRole('region', { name: 'Available Balance' }).waitFor();
      expect(await colorScheme()).toBe('dark');
      await screenshot(page, 'dashboard-desktop-dark');
      expect(problems.messages).toEqual([]);
    },
    testTimeoutMs,
  );

  it(
    'lets keyboard users skip straight to the page content',
    async () => {
      const { page, problems, customer } = await openPage('desktop', { isSignedIn: true });
      await openDashboard(page);
      await page.getByRole('heading', { level: 1, name: `Hello, ${customer.username}` }).waitFor();

      await page.keyboard.press('Tab');
      const skipLink = page.getByRole('link', { name: 'Skip to main content' });
      expect(await skipLink.evaluate((element) => element === document.activeElement)).toBe(true);
      expect(await isOnScreen(page, skipLink)).toBe(true);
      await page.keyboard.press('Enter');
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('MAIN');
      expect(problems.messages).toEqual([]);
    },
    testTimeoutMs,
  );

  it(
    'keeps the side menu behind the burger at phone width',
    async () => {
      const { page, problems, customer } = await openPage('phone', { isSignedIn: true });
      await openDashboard(page);
      await page.getByRole('heading', { level: 1, name: `Hello, ${customer.username}` }).waitFor();
      await page.getByRole('region', { name: 'Available Balance' }).waitFor();
      await page.getByRole('note', { name: 'Sandbox' }).waitFor();

      const sideMenu = page.getByRole('navigation', { name: 'Main' });
      const burger = page.getByRole('button', { name: 'Navigation menu' });
      expect(await isOnScreen(page, sideMenu)).toBe(false);
      // Off-screen links must not be reachable with Tab.
      expect(await sideMenu.evaluate((element) => (element as HTMLElement).inert)).toBe(true);
      expect(await burger.getAttribute('aria-expanded')).toBe('false');
      expect(await hasNoHorizontalScroll(page)).toBe(true);
      await screenshot(page, 'dashboard-phone');

      await burger.click();
      expect(await burger.getAttribute('aria-expanded')).toBe('true');
      await waitUntil('the side menu slides in', () => isOnScreen(page, sideMenu));
      expect(await sideMenu.evaluate((element) => (element as HTMLElement).inert)).toBe(false);
      await screenshot(page, 'dashboard-phone-menu-open');

      await sideMenu.getByRole('link', { name: 'Dashboard' }).click();
      await waitUntil('the side menu closes', async () => !(await isOnScreen(page, sideMenu)));
      expect(await burger.getAttribute('aria-expanded')).toBe('false');

      await page.getByRole('link', { name: 'Coffer home' }).click();
      await page
        .getByRole('heading', { level: 1, name: 'Banking you can check, from Coffer' })
        .waitFor();
      expect(await hasNoHorizontalScroll(page)).toBe(true);
      await screenshot(page, 'landing-phone-signed-in');
      expect(problems.messages).toEqual([]);
    },
    testTimeoutMs,
  );

  it(
    'fits a 360 px wide screen without sideways scrolling',
    async () => {
      const { page, problems, customer } = await openPage('phone', { isSignedIn: true });
      await page.setViewportSize({ width: 360, height: viewports.phone.height });
      for (const [path, heading, name] of [
        ['/', 'Banking you can check, from Coffer', 'landing'],
        ['/dashboard', `Hello, ${customer.username}`, 'dashboard'],
        ['/profile', 'Profile', 'profile'],
        ['/no-such-page', 'Page not found', 'not-found'],
      ] as const) {
        await page.goto(path);
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        await page.getByRole('note', { name: 'Sandbox' }).waitFor();
        expect(await hasNoHorizontalScroll(page), `sideways scrolling on ${path}`).toBe(true);
        await screenshot(page, `${name}-360`);
      }
      expect(problems.messages).toEqual([]);
    },
    testTimeoutMs,
  );
});
