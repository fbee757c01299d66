// The sign-up page's weight: the password-strength estimator (zxcvbn and its dictionaries,
// about 750 KB compressed) loads when someone types a password, not with the page, and the
// server still refuses a weak password whatever the browser shows. What the page loads
// until the network is quiet has its budget in e2e/page-weights.test.ts.
import { describe, expect, it } from 'vitest';
import { newCustomer } from './support/accounts.ts';
import { newContext, screenshot, type viewports, watchConsole } from './support/browser.ts';
import { unexpectedProblems } from './support/console.ts';
import { hasNoHorizontalScroll } from './support/pages.ts';
import { useServerAndBrowser } from './support/suite.ts';

const testTimeoutMs = 90_000;
const suite = useServerAndBrowser();

async function openSignup(viewport: keyof typeof viewports) {
  const context = suite.closeAfterTest(
    await newContext(suite.browser, { baseUrl: suite.server.baseUrl, viewport }),
  );
  const page = await context.newPage();
  const problems = watchConsole(page);
  // Names every script file the page asks for, whenever it does.
  const requestedScripts: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.endsWith('.js')) requestedScripts.push(pathname);
  });
  await page.goto('/signup', { waitUntil: 'load' });
  return { page, problems, requestedScripts };
}

/** The strength estimator's dictionaries, in a file of their own (apps/web/vite.config.ts). */
const dictionariesFile = /\/assets\/password-strength-dictionaries-[^/]*\.js$/;

const acceptTermsLabel = 'I have read and accept the terms of service and the privacy notice';

describe('the sign-up page', () => {
  it(
    'loads the strength estimator only once a password is typed',
    async () => {
      const { page, problems, requestedScripts } = await openSignup('desktop');
      // The page in full, before anyone touches the password field: the form is there and
      // nothing more is on its way, and still no dictionary.
      await page.getByRole('heading', { level: 1, name: 'Create account' }).waitFor();
      await page.getByRole('button', { name: 'Register' }).waitFor();
      await page.waitForLoadState('networkidle');
      expect(requestedScripts.filter((url) => dictionariesFile.test(url))).toEqual([]);
      await screenshot(page, 'signup-before-password-desktop');

      // Typing a password fetches the estimator and shows the meter.
      const customer = newCustomer();
      await page.getByLabel('Username').fill(customer.username);
      await page.getByLabel('Email').fill(customer.email);
      await page.getByLabel('Phone number').fill(customer.phone);
      await page.getByLabel('Password', { exact: true }).fill('password1');
      await page.getByText('Strength: Very weak — choose a stronger password.').waitFor();
      expect(requestedScripts.filter((url) => dictionariesFile.test(url))).toHaveLength(1);
      await screenshot(page, 'signup-weak-password-desktop');

      // The meter is advice; the server is the check.
      await page.getByLabel(acceptTermsLabel).check();
      await page.getByRole('button', { name: 'Register' }).click();
      await page.getByText('Password is too weak').first().waitFor();
      expect(new URL(page.url()).pathname).toBe('/signup');
      expect(unexpectedProblems(problems, [{ path: '/api/v1/auth/signup', status: 400 }])).toEqual(
        [],
      );
    },
    testTimeoutMs,
  );

  it(
    'shows the meter on a phone too, once a password is typed',
    async () => {
      const { page, problems } = await openSignup('phone');
      await page.getByRole('heading', { level: 1, name: 'Create account' }).waitFor();
      expect(await page.getByText('Strength:').count()).toBe(0);
      await page.getByLabel('Password', { exact: true }).fill('Quiet-harbour-lantern-52');
      await page.getByText('Strength: Very strong').waitFor();
      expect(await hasNoHorizontalScroll(page)).toBe(true);
      await screenshot(page, 'signup-strong-password-phone');
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    testTimeoutMs,
  );
});
