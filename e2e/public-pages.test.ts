// The public pages say only what the operator configured: with a full site file every
// section appears with the configured words; with only a name the optional sections are
// left out. Also checks accessibility with axe and takes the review screenshots.
import type { Site } from '@coffer/contracts/site';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newCustomer, signUpInContext } from './support/accounts.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { screenshot } from './support/browser.ts';
import { unexpectedProblems } from './support/console.ts';
import { hasNoHorizontalScroll } from './support/pages.ts';
import { fullSite } from './support/site-file.ts';
import { useServerAndBrowser } from './support/suite.ts';
import { waitUntil } from './support/wait.ts';

const testTimeoutMs = 90_000;

/** Phrases that would be invented figures ("10,000+ customers", "99.9% uptime"). */
const statisticPattern =
  /\d[\d,.]*\s*(%|\+|k\b|m\b|million|billion|customers|users|members|countries|transactions)/i;

/** The JavaScript files a page loads, by path, as the browser received them. */
function watchScripts(page: Page): string[] {
  const paths: string[] = [];
  page.on('response', (response) => {
    if ((response.headers()['content-type'] ?? '').includes('javascript')) {
      paths.push(new URL(response.url()).pathname);
    }
  });
  return paths;
}

describe('with a full site configuration', () => {
  const suite = useServerAndBrowser({ site: fullSite });

  it(
    'shows the configured name, tagline, who we are, contact and quick links on the landing page',
    async () => {
      const { page, problems } = await suite.openPage('desktop');
      await page.goto('/');
      const main = page.getByRole('main');
      await main
        .getByRole('heading', {
          level: 1,
          name: `Banking you can check, from ${fullSite.institutionName}`,
        })
        .waitFor();
      expect(await page.title()).toBe(fullSite.institutionName);
      await page.getByRole('link', { name: `${fullSite.institutionName} home` }).waitFor();
      await main.getByText(fullSite.tagline ?? '').waitFor();

      for (const heading of [
        'Banking Products',
        'Why Coffer',
        'Virtual cards',
        'Take the tour',
        'Who we are',
      ]) {
        await main.getByRole('heading', { level: 2, name: heading }).waitFor();
      }
      for (const feature of [
        'Wallet',
        'Instant transfers',
        'Bill pay',
        'Virtual cards',
        'Loans',
        'Identity verification',
      ]) {
        await main.getByRole('heading', { level: 3, name: feature, exact: true }).waitFor();
      }
      const whoWeAre = main.getByRole('region', { name: 'Who we are' });
      await whoWeAre.getByText(fullSite.whoWeAre ?? '').waitFor();
      await whoWeAre.getByText('Founded in 1987').waitFor();

      const footer = page.getByRole('contentinfo');
      const contact = footer.getByRole('link', { name: fullSite.contactEmail });
      expect(await contact.getAttribute('href')).toBe(`mailto:${fullSite.contactEmail}`);
      const quickLinks = footer.getByRole('navigation', { name: 'Quick links' });
      expect(
        await quickLinks.getByRole('link', { name: 'Member handbook' }).getAttribute('href'),
      ).toBe('https://harbour.example/handbook');
      expect(
        await quickLinks.getByRole('link', { name: 'Fee schedule' }).getAttribute('href'),
      ).toBe('/about');

      // The product tour is an illustration the visitor steps through.
      const tour = main.getByRole('region', { name: 'Take the tour' });
      await tour.getByRole('tab', { name: '3. Add money' }).click();
      await tour.getByRole('heading', { name: 'Add money to your wallet' }).waitFor();

      // Banking Products in the header scrolls to the products section.
      await page
        .getByRole('navigation', { name: 'Site' })
        .getByRole('link', { name: 'Banking Products' })
        .click();
      await page.waitForFunction(() => {
        const top = document.getElementById('products')?.getBoundingClientRect().top ?? -1;
        return top >= 0 && top < 100;
      });
      expect(new URL(page.url()).hash).toBe('#products');

      expect(await main.textContent()).not.toMatch(statisticPattern);
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    testTimeoutMs,
  );

  it(
    'shows the configured mission, vision, story, year, leadership and careers address on the about page',
    async () => {
      const { page, problems } = await suite.openPage('desktop');
      await page.goto('/AboutUs');
      const main = page.getByRole('main');
      await main
        .getByRole('heading', { level: 1, name: `About ${fullSite.institutionName}` })
        .waitFor();
      expect(new URL(page.url()).pathname).toBe('/about');

      await main.getByText(fullSite.mission ?? '').waitFor();
      await main.getByText(fullSite.vision ?? '').waitFor();
      const story = main.getByRole('region', { name: 'Our story' });
      await story.getByText('Founded in 1987').waitFor();
      await story.getByText('This story comes from the site file.').waitFor();
      for (const value of [
        'Integrity First',
        'Innovation Driven',
        'Customer Centric',
        'Excellence Always',
      ]) {
        await main.getByRole('heading', { level: 3, name: value }).waitFor();
      }
      const leadership = main.getByRole('region', { name: 'Leadership' });
      for (const person of fullSite.leadership ?? []) {
        await leadership.getByText(person.name).waitFor();
        await leadership.getByText(person.role).waitFor();
      }
      const careers = main.getByRole('link', { name: 'Explore Careers' });
      expect(await careers.getAttribute('href')).toBe(`mailto:${fullSite.careersEmail}`);
      expect(await main.textContent()).not.toMatch(statisticPattern);
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    testTimeoutMs,
  );

  it(
    'shows the operator’s texts in the visitor’s language, and the file’s own where it has none',
    async () => {
      const { page, problems } = await suite.openPage('desktop');
      const context = page.context();
      const { baseUrl } = suite.server;
      const german = fullSite.translations.de;
      const choose = (language: string) =>
        context.addCookies([{ name: 'coffer-language', value: language, url: baseUrl }]);
      await choose('de');
      // The landing page's HTML as the server rendered it, before any script.
      const rendered = await (await context.request.get('/')).text();
      expect(rendered).toContain('<html lang="de"');
      expect(rendered).toContain(german.tagline);
      expect(rendered).not.toContain(fullSite.tagline);
      await page.goto('/');
      const main = page.getByRole('main');
      await main.getByText(german.tagline).waitFor();
      // German has no "who we are" of its own: the file's.
      await main.getByText(fullSite.whoWeAre).waitFor();
      await page.goto('/about');
      for (const paragraph of german.story.split('\n\n')) {
        await main.getByText(paragraph).waitFor();
      }
      await main.getByText(fullSite.mission).waitFor();

      await choose('ja');
      await page.goto('/');
      await main.getByText(fullSite.tagline).waitFor();
      expect(await main.textContent()).not.toContain(german.tagline);
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    testTimeoutMs,
  );

  it(
    'has no serious or critical axe violations on the public and sign-in pages',
    async () => {
      const { page, problems } = await suite.openPage('desktop');
      const pages = [
        ['/', `Banking you can check, from ${fullSite.institutionName}`],
        ['/about', `About ${fullSite.institutionName}`],
        ['/signup', 'Create account'],
        ['/signin', 'Login'],
        ['/forgot-password', 'Forgot password'],
      ] as const;
      const violations: string[] = [];
      for (const [path, heading] of pages) {
        await page.goto(path);
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        violations.push(...(await seriousAxeViolations(page, path)));
      }
      expect(violations).toEqual([]);
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    testTimeoutMs,
  );

  it(
    'has no serious or critical axe violations on the profile page and its dialogs',
    async () => {
      const { page, problems } = await suite.openPage('desktop');
      const customer = await signUpInContext(page.context(), suite.server.baseUrl, newCustomer());
      await page.goto('/profile');
      await page
        .getByRole('region', { name: 'Active sessions' })
        .getByText('This device')
        .waitFor();
      const violations = await seriousAxeViolations(page, '/profile');

      await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
      const dialog = page.getByRole('dialog', { name: 'Set up two-factor authentication' });
      await dialog.getByLabel('Current password').fill(customer.password);
      await dialog.getByRole('button', { name: 'Continue' }).click();
      await dialog.getByLabel('Setup key').waitFor();
      violations.push(...(await seriousAxeViolations(page, 'two-factor dialog')));
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'hidden' });

      await page.getByRole('button', { name: 'Update Email' }).click();
      await page.getByRole('dialog', { name: 'Update Email' }).getByLabel('New email').waitFor();
      violations.push(...(await seriousAxeViolations(page, 'update email dialog')));
      expect(violations).toEqual([]);
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    testTimeoutMs,
  );

  for (const viewport of ['desktop', 'phone'] as const) {
    it(
      `renders landing, sign-up, login and profile at ${viewport} width`,
      async () => {
        const { page, problems } = await suite.openPage(viewport);
        const shots = [
          ['/', `Banking you can check, from ${fullSite.institutionName}`, 'landing'],
          ['/about', `About ${fullSite.institutionName}`, 'about'],
          ['/signup', 'Create account', 'signup'],
          ['/signin', 'Login', 'signin'],
        ] as const;
        for (const [path, heading, name] of shots) {
          await page.goto(path);
          await page.getByRole('heading', { level: 1, name: heading }).waitFor();
          expect(await hasNoHorizontalScroll(page), `sideways scrolling on ${path}`).toBe(true);
          await screenshot(page, `${name}-${viewport}`);
        }

        const customer = await signUpInContext(page.context(), suite.server.baseUrl, newCustomer());
        await page.goto('/profile');
        await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
        await page
          .getByRole('region', { name: 'Active sessions' })
          .getByText('This device')
          .waitFor();
        await page.getByText(customer.email, { exact: true }).first().waitFor();
        expect(await hasNoHorizontalScroll(page), 'sideways scrolling on /profile').toBe(true);
        await screenshot(page, `profile-${viewport}`);
        expect(unexpectedProblems(problems)).toEqual([]);
      },
      testTimeoutMs,
    );
  }

  describe('the landing page rendered on the server', () => {
    const heading = `Banking you can check, from ${fullSite.institutionName}`;

    it(
      'arrives as HTML without the app’s JavaScript, and its links open the app',
      async () => {
        const { page, problems } = await suite.openPage('desktop');
        const scripts = watchScripts(page);
        const response = await page.goto('/');
        // The landing page is in the HTML itself, before any script runs. (React separates
        // adjacent pieces of text with empty comments.)
        const html = ((await response?.text()) ?? '').replaceAll('<!-- -->', '');
        expect(html).toContain(heading);
        expect(html).toContain(fullSite.whoWeAre ?? '');
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        await page.waitForLoadState('networkidle');
        const appEntry = /src="(\/assets\/[^"]+\.js)"/.exec(
          // As a browser asks for a page: a client that takes no HTML gets the JSON 404.
          await (
            await page.request.get('/no-such-page', { headers: { accept: 'text/html' } })
          ).text(),
        )?.[1];
        expect(appEntry).toBeDefined();
        expect(scripts).not.toContain(appEntry);
        expect(
          scripts.filter((script) => !/^\/(color-scheme|assets\/landing-[\w-]+)\.js$/.test(script)),
        ).toEqual([]);

        await page.getByRole('main').getByRole('link', { name: 'Login' }).click();
        await page.getByRole('heading', { level: 1, name: 'Login' }).waitFor();
        expect(new URL(page.url()).pathname).toBe('/signin');
        await page.goBack();
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        await page.getByRole('contentinfo').getByRole('link', { name: 'About us' }).click();
        await page
          .getByRole('heading', { level: 1, name: `About ${fullSite.institutionName}` })
          .waitFor();
        expect(unexpectedProblems(problems)).toEqual([]);
      },
      testTimeoutMs,
    );

    it(
      'shows a signed-in visitor the way to their dashboard',
      async () => {
        const { page, problems } = await suite.openPage('desktop');
        const customer = await signUpInContext(page.context(), suite.server.baseUrl, newCustomer());
        await page.goto('/');
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        const header = page.getByRole('banner');
        expect(await header.getByRole('link', { name: 'Get Started' }).count()).toBe(0);
        await header.getByRole('link', { name: 'Dashboard' }).waitFor();
        expect(
          await page.getByRole('main').getByRole('link', { name: 'Create Account' }).count(),
        ).toBe(0);
        await page.getByRole('link', { name: 'Go to your dashboard' }).click();
        await page
          .getByRole('heading', { level: 1, name: `Hello, ${customer.username}` })
          .waitFor();
        expect(unexpectedProblems(problems)).toEqual([]);
      },
      testTimeoutMs,
    );

    it(
      'opens in the colour scheme chosen in the app',
      async () => {
        const { page, problems } = await suite.openPage('desktop');
        await page.goto('/about');
        await page.evaluate(() => window.localStorage.setItem('coffer-color-scheme', 'dark'));
        await page.goto('/');
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        expect(await page.evaluate(() => document.documentElement.dataset.mantineColorScheme)).toBe(
          'dark',
        );
        expect(await seriousAxeViolations(page, '/ (dark)')).toEqual([]);
        await screenshot(page, 'landing-desktop-dark');
        expect(unexpectedProblems(problems)).toEqual([]);
      },
      testTimeoutMs,
    );

    it(
      'works by keyboard on a phone: the site menu and the tour',
      async () => {
        const { page, problems } = await suite.openPage('phone');
        await page.goto('/');
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();

        const menuButton = page.getByRole('button', { name: 'Site menu' });
        const menu = page.getByRole('menu');
        expect(await menuButton.getAttribute('aria-expanded')).toBe('false');
        await menuButton.click();
        await menu.waitFor();
        expect(await menuButton.getAttribute('aria-expanded')).toBe('true');
        const items = menu.getByRole('menuitem');
        expect(await items.allTextContents()).toEqual(['About us', 'Banking Products', 'Login']);
        await waitUntil('the first item has focus', () =>
          items.first().evaluate((item) => item === document.activeElement),
        );
        expect(await seriousAxeViolations(page, '/ (menu open)')).toEqual([]);
        await screenshot(page, 'landing-phone-menu-open');
        await page.keyboard.press('ArrowUp');
        expect(await items.last().evaluate((item) => item === document.activeElement)).toBe(true);
        await page.keyboard.press('Escape');
        await menu.waitFor({ state: 'hidden' });
        expect(await menuButton.evaluate((button) => button === document.activeElement)).toBe(true);

        await menuButton.click();
        await menu.getByRole('menuitem', { name: 'Banking Products' }).click();
        await menu.waitFor({ state: 'hidden' });
        expect(new URL(page.url()).hash).toBe('#products');

        const tour = page.getByRole('region', { name: 'Take the tour' });
        await tour.getByRole('tab', { name: '1. Sign up' }).focus();
        await page.keyboard.press('ArrowRight');
        const secure = tour.getByRole('tab', { name: '2. Secure it' });
        expect(await secure.getAttribute('aria-selected')).toBe('true');
        expect(await secure.evaluate((tab) => tab === document.activeElement)).toBe(true);
        await tour.getByRole('heading', { name: 'Turn on two-factor security' }).waitFor();
        expect(
          await tour.getByRole('heading', { name: 'Open an account in a minute' }).isVisible(),
        ).toBe(false);
        const panelId = await secure.getAttribute('aria-controls');
        expect(await page.locator(`[id="${panelId}"]`).getAttribute('role')).toBe('tabpanel');
        expect(await hasNoHorizontalScroll(page)).toBe(true);
        expect(unexpectedProblems(problems)).toEqual([]);
      },
      testTimeoutMs,
    );
  });
});

describe('with only an institution name configured', () => {
  const minimalSite: Site = { institutionName: 'Plain Test Bank' };
  const suite = useServerAndBrowser({ site: minimalSite });

  it(
    'leaves out who we are, contact, quick links, story, leadership and careers',
    async () => {
      const { page, problems } = await suite.openPage('desktop');
      await page.goto('/');
      const main = page.getByRole('main');
      await main
        .getByRole('heading', { level: 1, name: 'Banking you can check, from Plain Test Bank' })
        .waitFor();
      await main.getByRole('heading', { level: 2, name: 'Why Coffer' }).waitFor();
      expect(await main.getByRole('heading', { name: 'Who we are' }).count()).toBe(0);
      const footer = page.getByRole('contentinfo');
      await footer.getByText('Plain Test Bank').waitFor();
      expect(await footer.getByRole('heading', { name: 'Contact' }).count()).toBe(0);
      expect(await footer.locator('a[href^="mailto:"]').count()).toBe(0);
      expect(await footer.getByRole('navigation', { name: 'Quick links' }).count()).toBe(0);
      expect(await main.textContent()).not.toMatch(statisticPattern);
      expect(await main.textContent()).not.toMatch(/Founded in/);

      await page.goto('/about');
      await main.getByRole('heading', { level: 1, name: 'About Plain Test Bank' }).waitFor();
      await main.getByRole('heading', { level: 2, name: 'Our core values' }).waitFor();
      for (const absent of [
        'Our mission',
        'Our vision',
        'Our story',
        'Leadership',
        'Work with us',
      ]) {
        expect(await main.getByRole('heading', { name: absent }).count(), absent).toBe(0);
      }
      expect(await main.getByRole('link', { name: 'Explore Careers' }).count()).toBe(0);
      expect(await main.textContent()).not.toMatch(/Founded in/);
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    testTimeoutMs,
  );
});
