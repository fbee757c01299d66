// Signing in adopts the language a person chose (ADR 055): a German who chose German reads
// German on a browser that has never seen Coffer; someone who chose none keeps the language
// of the browser they sign in on, whatever the one they signed up in. The words asserted are
// the catalogs' own.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { parsePo } from 'pofile-ts';
import { describe, expect, it } from 'vitest';
import { newCustomer, signUpInContext, type TestCustomer } from './support/accounts.ts';
import { watchConsole } from './support/browser.ts';
import { unexpectedProblems } from './support/console.ts';
import { openDashboard, pathOf, toast } from './support/pages.ts';
import { repoRoot } from './support/server.ts';
import { useServerAndBrowser } from './support/suite.ts';
import { waitUntil } from './support/wait.ts';

const suite = useServerAndBrowser();

type Language = 'en' | 'de' | 'ja';

/** A message of a web catalog in `language` (its English for English). */
function word(feature: string, language: Language, english: string): string {
  if (language === 'en') return english;
  const file = path.join(repoRoot, 'apps/web/src/features', feature, 'locales', `${language}.po`);
  const item = parsePo(readFileSync(file, 'utf8')).items.find((each) => each.msgid === english);
  const translation = item?.msgstr[0];
  if (!translation) throw new Error(`${feature}/${language}.po lacks “${english}”`);
  return translation;
}

/** A browser that has never opened Coffer: no cookie, and its own Accept-Language. */
async function freshBrowser(locale: string): Promise<BrowserContext> {
  const { browser, server } = suite;
  const context = suite.closeAfterTest(
    await browser.newContext({ baseURL: server.baseUrl, locale, reducedMotion: 'reduce' }),
  );
  expect(await context.cookies()).toEqual([]);
  return context;
}

/** Signs in through the login page, written in `pageLanguage`, until it sends them on. */
async function signInOnPage(page: Page, customer: TestCustomer, pageLanguage: Language) {
  const auth = (english: string) => word('auth', pageLanguage, english);
  await page.goto('/signin');
  await page.getByRole('heading', { level: 1, name: auth('Login') }).waitFor();
  await page.getByLabel(auth('Email')).fill(customer.email);
  await page.getByLabel(auth('Password'), { exact: true }).fill(customer.password);
  await page.getByRole('button', { name: auth('Login'), exact: true }).click();
}

async function languageCookieOf(context: BrowserContext): Promise<string | undefined> {
  return (await context.cookies()).find((cookie) => cookie.name === 'coffer-language')?.value;
}

/**
 * Signs `customer` in on a fresh browser asking for `browserLocale` (its login page in
 * `pageLanguage`), and checks that they read German from then on: the toast, the page, the
 * cookie the server renders by, and the next page load.
 */
async function expectGermanAfterSignIn(
  customer: TestCustomer,
  browserLocale: string,
  pageLanguage: Language,
): Promise<void> {
  const context = await freshBrowser(browserLocale);
  const page = await context.newPage();
  const problems = watchConsole(page);
  await signInOnPage(page, customer, pageLanguage);
  await toast(page, word('auth', 'de', 'Login Successful!'));
  await waitUntil('the login page sends them on', async () => pathOf(page) !== '/signin');
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
  expect(await languageCookieOf(context)).toBe('de');
  // A new page load: the server renders it in German too.
  await openDashboard(page);
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
  const greeting = word('wallet', 'de', 'Hello, {username}');
  await page
    .getByRole('heading', { level: 1, name: greeting.replace('{username}', customer.username) })
    .waitFor();
  expect(unexpectedProblems(problems)).toEqual([]);
}

describe('signing in in one’s own language', () => {
  it('gives a German who chose German German pages on a fresh English browser', async () => {
    const { server } = suite;
    const first = await freshBrowser('en-US');
    const customer = await signUpInContext(first, server.baseUrl, newCustomer());
    const chosen = await first.request.put('/api/v1/profile/language', {
      data: { language: 'de' },
      headers: { origin: server.baseUrl },
    });
    expect(chosen.status(), await chosen.text()).toBe(200);
    // The login page is English; the app switches as it signs them in.
    await expectGermanAfterSignIn(customer, 'en-US', 'en');
  });

  it('leaves someone who never chose in the language of the browser they sign in on', async () => {
    const { server } = suite;
    // Signed up on a Japanese browser, which their emails follow until they choose.
    const first = await freshBrowser('ja-JP');
    const customer = await signUpInContext(first, server.baseUrl, newCustomer());
    await expectGermanAfterSignIn(customer, 'de-DE', 'de');
  });
});
