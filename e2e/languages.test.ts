// Every route in German, Japanese and Arabic, at 1280 and 390 px (docs/decisions/054): no
// text of a translated catalog is left in English, nothing is wider than the screen and no
// button, tab or badge cuts its words off, the document says its language and direction, and
// the server-rendered pages hydrate without a mismatch (a console error fails the page).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { parsePo } from 'pofile-ts';
import { describe, expect, it } from 'vitest';
import { watchConsole } from './support/browser.ts';
import { unexpectedProblems } from './support/console.ts';
import { demo, userIdByEmail } from './support/pages.ts';
import { repoRoot } from './support/server.ts';
import { useServerAndBrowser } from './support/suite.ts';

const suite = useServerAndBrowser();
const testTimeoutMs = 600_000;
const languages = ['de', 'ja', 'ar'] as const;
type Language = (typeof languages)[number];
const widths = [1280, 390] as const;

type Role = 'visitor' | 'customer' | 'staff';
type Ids = { alice: string };
/** Each route, who opens it, and the feature whose words it shows ('' the frame's own). */
const routes: readonly { role: Role; path: string | ((ids: Ids) => string); feature: string }[] = [
  { role: 'visitor', path: '/', feature: 'landing' },
  { role: 'visitor', path: '/about', feature: 'about' },
  { role: 'visitor', path: '/signup', feature: 'auth' },
  { role: 'visitor', path: '/signin', feature: 'auth' },
  { role: 'visitor', path: '/forgot-password', feature: 'auth' },
  { role: 'visitor', path: '/no-such-page', feature: '' },
  { role: 'customer', path: '/dashboard', feature: 'wallet' },
  { role: 'customer', path: '/dashboard/deposit', feature: 'wallet' },
  { role: 'customer', path: '/wallets', feature: 'wallet' },
  { role: 'customer', path: '/exchange', feature: 'wallet' },
  { role: 'customer', path: '/transfer', feature: 'transfers' },
  { role: 'customer', path: '/pay-bills', feature: 'bills' },
  { role: 'customer', path: '/payees', feature: 'payees' },
  { role: 'customer', path: '/scheduled-payments', feature: 'scheduled-payments' },
  { role: 'customer', path: '/bulk-payments', feature: 'bulk-payments' },
  { role: 'customer', path: '/cards', feature: 'cards' },
  { role: 'customer', path: '/loan', feature: 'loans' },
  { role: 'customer', path: '/kyc', feature: 'kyc' },
  { role: 'customer', path: '/dispute', feature: 'disputes' },
  { role: 'customer', path: '/support', feature: 'support' },
  { role: 'customer', path: '/statements', feature: 'statements' },
  { role: 'customer', path: '/notifications', feature: 'notifications' },
  { role: 'customer', path: '/profile', feature: 'profile' },
  { role: 'customer', path: '/profile/export', feature: 'data-export' },
  { role: 'customer', path: '/close-account', feature: 'account-closure' },
  { role: 'staff', path: '/admin', feature: 'admin' },
  { role: 'staff', path: (ids) => `/admin/users/${ids.alice}`, feature: 'admin' },
  { role: 'staff', path: '/admin/queues/deposits', feature: 'deposits' },
  { role: 'staff', path: '/admin/queues/payouts', feature: 'payouts' },
  { role: 'staff', path: '/admin/queues/loans', feature: 'loans' },
  { role: 'staff', path: '/admin/queues/kyc', feature: 'kyc' },
  { role: 'staff', path: '/admin/queues/cards', feature: 'cards' },
  { role: 'staff', path: '/admin/queues/disputes', feature: 'disputes' },
  { role: 'staff', path: '/admin/queues/support', feature: 'support' },
  { role: 'staff', path: '/admin/audit', feature: 'audit' },
  { role: 'staff', path: '/admin/books', feature: 'books' },
  { role: 'staff', path: '/admin/reports', feature: 'reports' },
  { role: 'staff', path: '/admin/reconciliation', feature: 'payment-files' },
  { role: 'staff', path: '/admin/webhooks', feature: 'webhooks' },
  { role: 'staff', path: '/admin/exchange-rates', feature: 'admin' },
];
/**
 * Features not translated yet (scripts/features-not-yet-translated.json, which the lint
 * reads too): their pages are held to everything here but English text, as their own
 * words are still English.
 */
const featuresNotYetTranslated: readonly string[] = JSON.parse(
  readFileSync(path.join(repoRoot, 'scripts/features-not-yet-translated.json'), 'utf8'),
);

/** A PO file's messages: msgid → msgstr. */
function readPo(file: string): Map<string, string> {
  return new Map(
    parsePo(readFileSync(file, 'utf8')).items.map((item) => [item.msgid, item.msgstr[0] ?? '']),
  );
}

/**
 * The English texts a page in `language` must not show: every whole message of the web's
 * catalogs (no placeholders or tags: those never appear as written) whose translation
 * differs from the English ("OK" is German too).
 */
function englishTextsFor(language: Language): Set<string> {
  const texts = new Set<string>();
  const webSrc = path.join(repoRoot, 'apps/web/src');
  const catalogDirectories = readdirSync(webSrc, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name === 'locales')
    .map((entry) => path.join(entry.parentPath, entry.name));
  for (const directory of catalogDirectories) {
    const translated = readPo(path.join(directory, `${language}.po`));
    for (const [english, translation] of translated) {
      const isWhole = !/[{<]/.test(english) && /\p{L}{3}/u.test(english);
      if (isWhole && translation !== '' && translation !== english) texts.add(english);
    }
  }
  return texts;
}

/** What a page shows in English, cut off or too wide, and what it says of its language. */
async function pageProblems(page: Page, englishTexts: Set<string>) {
  return page.evaluate(
    (english) => {
      const englishSeen = new Set<string>();
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent?.trim() ?? '';
        const parent = node.parentElement;
        if (text && parent?.checkVisibility() && english.includes(text)) englishSeen.add(text);
      }
      for (const element of Array.from(
        document.querySelectorAll('[aria-label], [placeholder], [title]'),
      )) {
        for (const name of ['aria-label', 'placeholder', 'title']) {
          const value = element.getAttribute(name)?.trim() ?? '';
          if (english.includes(value)) englishSeen.add(`${name}="${value}"`);
        }
      }
      const cutOff = Array.from(
        document.querySelectorAll<HTMLElement>(
          'button, [role="tab"], .mantine-Badge-root, .mantine-NavLink-label, th, h1, h2',
        ),
      )
        .filter((element) => {
          // Hidden, or visually hidden for screen readers only (a 1 px clip).
          if (!element.checkVisibility() || element.clientWidth <= 1) return false;
          const style = getComputedStyle(element);
          const isMeantToCut =
            style.textOverflow === 'ellipsis' || /auto|scroll/.test(style.overflowX);
          return !isMeantToCut && element.scrollWidth > element.clientWidth + 1;
        })
        .map((element) => element.textContent?.trim().slice(0, 40) ?? '');
      return {
        lang: document.documentElement.lang,
        dir: document.documentElement.dir,
        englishSeen: [...englishSeen],
        cutOff,
        isWiderThanScreen: document.documentElement.scrollWidth > window.innerWidth + 1,
      };
    },
    [...englishTexts],
  );
}

async function contextFor(language: Language, role: Role, width: number): Promise<BrowserContext> {
  const { browser, server } = suite;
  const context = suite.closeAfterTest(
    await browser.newContext({
      baseURL: server.baseUrl,
      viewport: { width, height: 844 },
      locale: 'en-US',
      reducedMotion: 'reduce',
    }),
  );
  // The visitor's choice (the switcher's cookie) wins over the browser's English.
  await context.addCookies([{ name: 'coffer-language', value: language, url: server.baseUrl }]);
  if (role !== 'visitor') {
    const account = role === 'staff' ? demo.admin : demo.alice;
    const login = await context.request.post('/api/v1/auth/login', {
      data: { email: account.email, password: account.password },
      headers: { origin: server.baseUrl },
    });
    expect(login.status(), await login.text()).toBe(200);
  }
  return context;
}

/** Waits until the app has drawn the page: its heading, and no page-wide loader left. */
async function waitForPage(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      !document.getElementById('root')?.hasAttribute('data-server-rendered') &&
      document.querySelector('h1') !== null &&
      document.querySelector('[role="status"][aria-busy="true"], .mantine-Loader-root') === null,
    undefined,
    { timeout: 20_000 },
  );
}

describe('Every route in German, Japanese and Arabic', () => {
  for (const language of languages) {
    it(
      `${language}: no English left, nothing cut off or too wide, no hydration problem`,
      async () => {
        const englishTexts = englishTextsFor(language);
        const staff = await (await contextFor(language, 'staff', 1280)).newPage();
        const ids = { alice: await userIdByEmail(staff, suite.server.baseUrl, demo.alice.email) };
        const failures: string[] = [];
        for (const width of widths) {
          for (const role of ['visitor', 'customer', 'staff'] as const) {
            const page = await (await contextFor(language, role, width)).newPage();
            const console = watchConsole(page);
            for (const route of routes.filter((candidate) => candidate.role === role)) {
              const routePath = typeof route.path === 'string' ? route.path : route.path(ids);
              await page.goto(routePath);
              await waitForPage(page);
              const isTranslated = !featuresNotYetTranslated.includes(route.feature);
              const found = await pageProblems(page, isTranslated ? englishTexts : new Set());
              const where = `${language} ${width}px ${routePath}`;
              if (found.lang !== language) failures.push(`${where}: <html lang="${found.lang}">`);
              const direction = language === 'ar' ? 'rtl' : 'ltr';
              if (found.dir !== direction) failures.push(`${where}: <html dir="${found.dir}">`);
              if (found.englishSeen.length > 0) {
                failures.push(`${where}: English ${JSON.stringify(found.englishSeen)}`);
              }
              if (found.cutOff.length > 0) {
                failures.push(`${where}: cut off ${JSON.stringify(found.cutOff)}`);
              }
              if (found.isWiderThanScreen) failures.push(`${where}: wider than the screen`);
              for (const problem of unexpectedProblems(console).splice(0)) {
                failures.push(`${where}: ${problem}`);
              }
              console.messages.length = 0;
            }
          }
        }
        expect(failures).toEqual([]);
      },
      testTimeoutMs,
    );
  }
});
