// The app's routing (React Router, docs/decisions/034) in a real browser: links move within
// the app without loading a new document, a new page starts at its top, Back and Forward
// bring a page back where it was scrolled, and an address with a parameter opens on a fresh
// load.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signUpInContext } from './support/accounts.ts';
import { unexpectedProblems } from './support/console.ts';
import { demo, logIn, pathOf, userIdByEmail } from './support/pages.ts';
import { fullSite } from './support/site-file.ts';
import { useServerAndBrowser } from './support/suite.ts';
import { waitUntil } from './support/wait.ts';

const testTimeoutMs = 90_000;

const suite = useServerAndBrowser({ site: fullSite });

const scrollYOf = (page: Page) => page.evaluate(() => window.scrollY);

/** Marks the document, so a later check can tell the app moved without loading a new one. */
async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as { sameDocument?: boolean }).sameDocument = true;
  });
}

function isSameDocument(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument === true);
}

describe('navigation', () => {
  it(
    'starts a new page at its top and returns to the scrolled page on Back and Forward',
    async () => {
      const { page, problems } = await suite.openPage('phone');
      await page.goto('/about');
      const aboutHeading = page.getByRole('heading', { level: 1, name: /About/ });
      await aboutHeading.waitFor();
      await markDocument(page);

      // Down to the footer, and from there to the login page.
      const footer = page.getByRole('contentinfo');
      await footer.scrollIntoViewIfNeeded();
      const aboutScrollY = await scrollYOf(page);
      expect(aboutScrollY, 'the about page is long enough to scroll').toBeGreaterThan(300);
      await footer.getByRole('link', { name: 'Login' }).click();
      await page.getByRole('heading', { level: 1, name: 'Login' }).waitFor();
      expect(pathOf(page)).toBe('/signin');
      expect(await scrollYOf(page), 'the login page starts at its top').toBe(0);

      await page.goBack();
      await aboutHeading.waitFor();
      expect(pathOf(page)).toBe('/about');
      await waitUntil(
        'Back returns to where the about page was scrolled',
        async () => Math.abs((await scrollYOf(page)) - aboutScrollY) <= 1,
      );

      await page.goForward();
      await page.getByRole('heading', { level: 1, name: 'Login' }).waitFor();
      expect(pathOf(page)).toBe('/signin');
      await waitUntil('Forward returns to the top of the login page', async () => {
        return (await scrollYOf(page)) === 0;
      });
      expect(await isSameDocument(page), 'the app moved without loading a new page').toBe(true);
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    testTimeoutMs,
  );

  it(
    'opens an address with a parameter on a fresh load, follows the short form’s redirect, and goes Back to it',
    async () => {
      const { context, page, problems } = await suite.openPage('desktop');
      const visitor = await suite.openPage('desktop');
      const customer = await signUpInContext(visitor.context, suite.server.baseUrl);
      await logIn(page, demo.admin);
      const customerId = await userIdByEmail(page, suite.server.baseUrl, customer.email);

      // A fresh page load of the customer's page.
      const fresh = await context.newPage();
      await fresh.goto(`/admin/users/${customerId}`);
      await fresh.getByRole('heading', { level: 1, name: customer.username }).waitFor();
      await fresh.close();

      // The short form redirects; Back from the list returns to the customer.
      await page.goto(`/admin/${customerId}`);
      await page.getByRole('heading', { level: 1, name: customer.username }).waitFor();
      expect(pathOf(page)).toBe(`/admin/users/${customerId}`);
      await page.getByRole('link', { name: 'Admin', exact: true }).first().click();
      await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
      await page.goBack();
      await page.getByRole('heading', { level: 1, name: customer.username }).waitFor();
      expect(pathOf(page)).toBe(`/admin/users/${customerId}`);
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    testTimeoutMs,
  );
});
