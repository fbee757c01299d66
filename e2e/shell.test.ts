// The frame of signed-in pages as each role meets it: staff get the back office's menu and
// no customer pages; customers get every customer page that exists (menu and dashboard
// shortcuts) and no server internals; an unknown address shows the 404 page inside the
// person's own frame. And the landing page of an installation nobody configured claims
// nothing about who runs it.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newCustomer, signUpInContext } from './support/accounts.ts';
import { newContext, screenshot, type viewports, watchConsole } from './support/browser.ts';
import { unexpectedProblems } from './support/console.ts';
import { demo, hasNoHorizontalScroll, logIn, openDashboard, pathOf } from './support/pages.ts';
import { useServerAndBrowser } from './support/suite.ts';
import { waitUntil } from './support/wait.ts';

const testTimeoutMs = 90_000;

const suite = useServerAndBrowser();

/** A signed-in customer nobody else uses, on a page of their own. */
async function openCustomerPage(viewport: keyof typeof viewports = 'desktop') {
  const context = suite.closeAfterTest(
    await newContext(suite.browser, { baseUrl: suite.server.baseUrl, viewport }),
  );
  const customer = await signUpInContext(context, suite.server.baseUrl, newCustomer());
  const page = await context.newPage();
  return { page, problems: watchConsole(page), customer };
}

function sideMenu(page: Page) {
  return page.getByRole('navigation', { name: 'Main' });
}

/** The side menu's entries, links and the Logout button, in order. */
async function menuEntries(page: Page): Promise<string[]> {
  return sideMenu(page).evaluate((element) =>
    Array.from(
      element.querySelectorAll('a, button'),
      (entry) => entry.querySelector('.mantine-NavLink-label')?.textContent?.trim() ?? '',
    ),
  );
}

/** Asserts the side menu's entries once it has them all (the staff's load on first use). */
async function expectMenu(page: Page, expected: readonly string[], where: string): Promise<void> {
  await waitUntil(`the menu on ${where}`, async () => {
    const entries = await menuEntries(page);
    return entries.length >= expected.length;
  }).catch(() => {});
  expect(await menuEntries(page), where).toEqual(expected);
}

/** On a phone the menu is behind the burger: open it for a screenshot of it. */
async function openPhoneMenu(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Navigation menu' }).click();
  await phoneMenuShown(page);
}

/** Waits until the phone menu has slid in. */
async function phoneMenuShown(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const menu = document.querySelector('nav[aria-label="Main"]');
    const box = menu?.getBoundingClientRect();
    return box !== undefined && box.left >= 0 && box.width > 0;
  });
}

const customerMenu = [
  'Dashboard',
  'Wallets',
  'Exchange',
  'Transfer',
  'Pay Bills',
  'Payees',
  'Scheduled',
  'Bulk payments',
  'Loan',
  'Cards',
  'KYC',
  'Statements',
  'Support',
  'Profile',
  'Logout',
];
const staffMenu = [
  'Admin',
  'Deposits queue',
  'Payouts queue',
  'Loans queue',
  'KYC queue',
  'Cards queue',
  'Disputes queue',
  'Support inbox',
  'Audit log',
  'Books',
  'Reconciliation',
  'Reports',
  'Exchange rates',
  'Profile',
  'Logout',
];
/** Webhooks are the admin's alone: support is not offered the page the API refuses them. */
const adminMenu = [...staffMenu.slice(0, -2), 'Webhooks', ...staffMenu.slice(-2)];

describe('the signed-in shell', () => {
  it(
    'gives staff the back office’s menu only, and a 404 in their own frame for customer pages',
    async () => {
      for (const [staff, menu] of [
        [demo.support, staffMenu],
        [demo.admin, adminMenu],
      ] as const) {
        const { page, problems } = await suite.openPage();
        await logIn(page, staff);
        expect(pathOf(page)).toBe('/admin');
        await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
        await expectMenu(page, menu, staff.email);
        expect(unexpectedProblems(problems)).toEqual([]);
      }

      const { page, problems } = await suite.openPage();
      await logIn(page, demo.admin);
      await screenshot(page, 'shell-staff-menu-desktop');
      for (const path of ['/transfer', '/dashboard', '/pay-bills', '/statements']) {
        await page.goto(path);
        await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
        await expectMenu(page, adminMenu, path);
        // The customer pages' API calls would be refused: the page must not make them.
        expect(await page.getByText('You do not have access to this.').count(), path).toBe(0);
        expect(await page.getByRole('alert').count(), path).toBe(0);
      }
      await screenshot(page, 'shell-staff-transfer-desktop');
      await page.getByRole('link', { name: 'Go to the back office' }).click();
      await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
      expect(pathOf(page)).toBe('/admin');
      // Their own profile is theirs to open.
      await sideMenu(page).getByRole('link', { name: 'Profile' }).click();
      await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
      expect(unexpectedProblems(problems)).toEqual([]);

      const phone = await suite.openPage('phone');
      await logIn(phone.page, demo.support);
      await phone.page.goto('/transfer');
      await phone.page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
      expect(await hasNoHorizontalScroll(phone.page)).toBe(true);
      await screenshot(phone.page, 'shell-staff-transfer-phone');
      await openPhoneMenu(phone.page);
      await expectMenu(phone.page, staffMenu, 'a phone');
      await screenshot(phone.page, 'shell-staff-menu-phone');
      expect(unexpectedProblems(phone.problems)).toEqual([]);
    },
    testTimeoutMs,
  );

  it(
    'shows a signed-in customer the 404 page inside the app, with the app’s menu',
    async () => {
      const { page, problems } = await openCustomerPage();
      for (const path of ['/no-such-page', '/dashboard/no-such-page', '/admin', '/admin/audit']) {
        await page.goto(path);
        await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
        await expectMenu(page, customerMenu, path);
        await page.getByRole('banner').getByRole('button', { name: 'User menu' }).waitFor();
        // Not the public frame: no visitor's header or footer.
        expect(await page.getByRole('link', { name: 'Get Started' }).count(), path).toBe(0);
        expect(await page.getByRole('contentinfo').count(), path).toBe(0);
      }
      await page.goto('/no-such-page');
      await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
      expect(await page.title()).toBe('Page not found · Coffer');
      await screenshot(page, 'shell-customer-not-found-desktop');
      await page.getByRole('link', { name: 'Go to your dashboard' }).click();
      await page.getByRole('region', { name: 'Available Balance' }).waitFor();
      expect(pathOf(page)).toBe('/dashboard');
      expect(unexpectedProblems(problems)).toEqual([]);

      const phone = await openCustomerPage('phone');
      await phone.page.goto('/no-such-page');
      await phone.page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
      expect(await hasNoHorizontalScroll(phone.page)).toBe(true);
      await screenshot(phone.page, 'shell-customer-not-found-phone');
      await openPhoneMenu(phone.page);
      await expectMenu(phone.page, customerMenu, 'a phone');
      expect(unexpectedProblems(phone.problems)).toEqual([]);
    },
    testTimeoutMs,
  );

  it(
    'offers every customer page that exists, in the menu and as dashboard shortcuts, and no server internals',
    async () => {
      const { page, problems } = await openCustomerPage();
      await openDashboard(page);
      await page.getByRole('region', { name: 'Available Balance' }).waitFor();
      await expectMenu(page, customerMenu, '/dashboard');
      const shortcuts = page.getByRole('navigation', { name: 'Shortcuts' }).getByRole('link');
      expect(await shortcuts.allTextContents()).toEqual([
        'Wallets',
        'Exchange',
        'Transfer',
        'Pay Bills',
        'Payees',
        'Scheduled',
        'Bulk payments',
        'Loan',
        'Cards',
        'KYC',
        'Statements',
        'Support',
        'Profile',
      ]);
      // The server's database and mode are not a customer's business.
      expect(await page.getByRole('region', { name: 'System status' }).count()).toBe(0);
      expect(await page.getByRole('main').textContent()).not.toMatch(/PGlite|PostgreSQL/);
      await screenshot(page, 'shell-customer-dashboard-desktop');

      // Every link of the menu and every shortcut opens a page that exists.
      const targets = new Set([
        ...(await sideMenu(page)
          .getByRole('link')
          .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''))),
        ...(await shortcuts.evaluateAll((links) =>
          links.map((link) => link.getAttribute('href') ?? ''),
        )),
      ]);
      for (const target of targets) {
        await page.goto(target);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        expect(await page.getByRole('heading', { name: 'Page not found' }).count(), target).toBe(0);
      }
      expect(unexpectedProblems(problems)).toEqual([]);

      const phone = await openCustomerPage('phone');
      await openDashboard(phone.page);
      await phone.page.getByRole('navigation', { name: 'Shortcuts' }).waitFor();
      expect(await hasNoHorizontalScroll(phone.page)).toBe(true);
      await screenshot(phone.page, 'shell-customer-dashboard-phone');
      expect(unexpectedProblems(phone.problems)).toEqual([]);
    },
    testTimeoutMs,
  );
});

describe('the phone menu', () => {
  it(
    'holds the keyboard while open, keeps the page behind still, and gives focus back to the burger',
    async () => {
      const { page, problems } = await openCustomerPage('phone');
      await openDashboard(page);
      const burger = page.getByRole('button', { name: 'Navigation menu' });
      const focused = () =>
        page.evaluate(() => {
          const element = document.activeElement;
          const where = element?.closest('nav[aria-label="Main"]') ? 'menu' : element?.tagName;
          return `${where}: ${element?.getAttribute('aria-label') ?? element?.textContent?.trim()}`;
        });

      await burger.focus();
      await page.keyboard.press('Enter');
      await phoneMenuShown(page);
      // Tabbing past the menu's last entry must not reach the page hidden under it.
      for (let step = 0; step < customerMenu.length + 4; step += 1) {
        await page.keyboard.press('Tab');
        expect(
          await page.locator('main').evaluate((main) => main.contains(document.activeElement)),
        ).toBe(false);
      }
      await page.mouse.wheel(0, 600);
      await page.waitForTimeout(200);
      expect(await page.evaluate(() => window.scrollY), 'the page behind the open menu').toBe(0);

      await burger.focus();
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      expect(await focused()).toBe('menu: Dashboard');
      await page.keyboard.press('Escape');
      expect(await burger.getAttribute('aria-expanded')).toBe('false');
      expect(await focused()).toBe('BUTTON: Navigation menu');

      await page.keyboard.press('Enter');
      await phoneMenuShown(page);
      await sideMenu(page).getByRole('link', { name: 'Cards' }).click();
      await page.getByRole('heading', { level: 1, name: 'Virtual cards' }).waitFor();
      expect(await focused()).toBe('BUTTON: Navigation menu');
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    testTimeoutMs,
  );
});

describe('an installation nobody configured', () => {
  it(
    'says nothing on the landing page about who runs it',
    async () => {
      for (const viewport of ['desktop', 'phone'] as const) {
        const { page, problems } = await suite.openPage(viewport);
        await page.goto('/');
        const main = page.getByRole('main');
        const why = main.getByRole('region', { name: 'Why Coffer' });
        await why.getByText('Coffer is open-source banking software', { exact: false }).waitFor();
        expect(await page.textContent('body')).not.toMatch(/runs on Coffer/i);
        expect(await page.getByRole('heading', { name: 'Who we are' }).count()).toBe(0);
        await screenshot(page, `landing-unconfigured-${viewport}`);
        expect(unexpectedProblems(problems)).toEqual([]);
      }
    },
    testTimeoutMs,
  );
});
