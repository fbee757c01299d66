// The money pages in German and Arabic (issue #35): wallet, transfers, statements,
// notifications and payees, opened with the language cookie the switcher writes. Each page
// shows its own words in the language, none of the English of those features' catalogs is
// left on it, and Arabic lays out right to left. An amount typed the German way
// ("12,50") is read as 12.50.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newContext, type viewports, watchConsole } from './support/browser.ts';
import { unexpectedProblems } from './support/console.ts';
import {
  demo,
  hasNoHorizontalScroll,
  toast,
  waitForAppTakeover,
  wordsAskedBy,
} from './support/pages.ts';
import { repoRoot } from './support/server.ts';
import { useServerAndBrowser } from './support/suite.ts';

const suite = useServerAndBrowser();

const features = ['wallet', 'transfers', 'statements', 'notifications', 'payees'] as const;
const moneyPages = [
  '/dashboard',
  '/dashboard/deposit',
  '/wallets',
  '/exchange',
  '/transfer',
  '/statements',
  '/notifications',
  '/payees',
] as const;

type Language = 'de' | 'ar';
type Message = { context: string | undefined; id: string; translation: string };

/** A catalog's messages (one-line PO entries, as `lingui extract` writes them). */
function catalog(feature: string, language: string): Message[] {
  const file = path.join(repoRoot, `apps/web/src/features/${feature}/locales/${language}.po`);
  const unquote = (line: string) => JSON.parse(line.slice(line.indexOf('"'))) as string;
  const messages: Message[] = [];
  let context: string | undefined;
  let id: string | undefined;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('msgctxt ')) context = unquote(line);
    else if (line.startsWith('msgid ')) id = unquote(line);
    else if (line.startsWith('msgstr ') && id !== undefined) {
      if (id !== '') messages.push({ context, id, translation: unquote(line) });
      context = undefined;
      id = undefined;
    }
  }
  return messages;
}

/** Shorter parts of messages are common English, which other features' pages may show. */
const minPartLength = 24;

/**
 * The English of the money features that must not be seen on a page in `language`: the
 * parts of each message between its placeholders and tags, where the translation differs
 * (names such as "Quick Pay" in German, or "Status", read the same) and the part is long
 * enough not to occur by chance in a name or in what the API wrote (a transaction's
 * description, another feature's "Verify your identity to withdraw"). Short messages
 * count only as a whole text of their own.
 */
function englishLeft(language: Language): { whole: Set<string>; parts: Set<string> } {
  const whole = new Set<string>();
  const parts = new Set<string>();
  for (const feature of features) {
    for (const message of catalog(feature, language)) {
      if (message.translation === '' || message.translation === message.id) continue;
      if (message.id.includes(', plural,')) continue;
      const pieces = message.id
        .split(/\{[^}]*\}|<\/?\d+>/)
        .map((piece) => piece.trim())
        .filter((piece) => /\p{L}/u.test(piece));
      for (const piece of pieces) {
        if (piece === message.id.trim()) whole.add(piece);
        if (piece.length >= minPartLength && piece.includes(' ')) parts.add(piece);
      }
    }
  }
  return { whole, parts };
}

/**
 * The page's own text: the main region's, without the menus it holds (the dashboard's
 * shortcuts are the frame's), as whole texts of their elements and as one string.
 */
async function pageText(page: Page): Promise<{ texts: string[]; all: string }> {
  return page.evaluate(() => {
    const main = document.querySelector('main');
    if (!main) return { texts: [], all: '' };
    const texts: string[] = [];
    const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      if (!element || element.closest('nav')) continue;
      const text = element.textContent?.trim() ?? '';
      if (text !== '') texts.push(text);
    }
    const clone = main.cloneNode(true) as HTMLElement;
    for (const nav of Array.from(clone.querySelectorAll('nav'))) nav.remove();
    return { texts, all: clone.textContent ?? '' };
  });
}

async function openIn(language: Language, viewport: keyof typeof viewports = 'desktop') {
  const { baseUrl } = suite.server;
  const context = suite.closeAfterTest(await newContext(suite.browser, { baseUrl, viewport }));
  await context.addCookies([
    { name: 'coffer-language', value: language, url: baseUrl },
    { name: 'coffer-balance-visible', value: '1', url: baseUrl },
  ]);
  const login = await context.request.post('/api/v1/auth/login', {
    data: { email: demo.alice.email, password: demo.alice.password },
    headers: { origin: baseUrl },
  });
  expect(login.status(), await login.text()).toBe(200);
  const page = await context.newPage();
  return { page, problems: watchConsole(page) };
}

/** Opens each money page and finds no English of the money catalogs on it. */
async function expectNoEnglishLeft(page: Page, language: Language): Promise<void> {
  const english = englishLeft(language);
  expect(english.whole.size).toBeGreaterThan(50);
  for (const pagePath of moneyPages) {
    await page.goto(pagePath);
    await waitForAppTakeover(page);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.waitForLoadState('networkidle');
    const { texts, all } = await pageText(page);
    const leftWhole = texts.filter((text) => english.whole.has(text));
    const leftParts = [...english.parts].filter((part) => all.includes(part));
    expect([...leftWhole, ...leftParts], `English left on ${pagePath} in ${language}`).toEqual([]);
    await expect(page.evaluate(() => document.documentElement.lang)).resolves.toBe(language);
    expect(await hasNoHorizontalScroll(page), `${pagePath} scrolls sideways`).toBe(true);
  }
}

describe('the money pages in German and Arabic', () => {
  it('speak German on every money page, and read an amount typed the German way', async () => {
    const { page, problems } = await openIn('de');
    await page.goto('/dashboard');
    await waitForAppTakeover(page);
    await page.getByRole('heading', { level: 1, name: `Hallo, ${demo.alice.username}` }).waitFor();
    await page.getByText('Verfügbares Guthaben').waitFor();
    await page.getByRole('link', { name: 'Geld einzahlen' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Transaktionen' }).waitFor();
    // Alice's seeded balance, written the German way.
    await page.getByText('1.504,80 $', { exact: true }).first().waitFor();

    await expectNoEnglishLeft(page, 'de');
    await page.goto('/statements');
    await page.getByRole('heading', { level: 1, name: 'Kontoauszüge' }).waitFor();
    await page.getByRole('link', { name: 'CSV herunterladen' }).waitFor();
    await page.goto('/payees');
    await page.getByRole('heading', { level: 1, name: 'Empfänger' }).waitFor();

    // "12,50" in German is twelve dollars fifty, not 1250: the API is sent "12.50".
    await page.goto('/dashboard/deposit');
    await page.getByRole('heading', { level: 2, name: 'Testgeld hinzufügen' }).waitFor();
    await page.getByLabel('Betrag').fill('12,50');
    await page.getByRole('button', { name: 'Testgeld hinzufügen' }).click();
    await toast(page, '12,50 $ Testgeld wurden Ihrem Wallet gutgeschrieben.');
    expect(unexpectedProblems(problems)).toEqual([]);
  });

  it("opens Quick Pay in German, its words coming with the dialog's code, not the dashboard's", async () => {
    const { page, problems } = await openIn('de');
    const wordsAsked = wordsAskedBy(page);
    await page.goto('/dashboard', { waitUntil: 'networkidle' });
    await waitForAppTakeover(page);
    expect(wordsAsked).toContain('features.wallet.pages.dashboard-page.de');
    expect(wordsAsked).not.toContain('features.transfers.index.de');

    await page.getByRole('button', { name: 'Quick Pay' }).click();
    const dialog = page.getByRole('dialog', { name: 'Quick Pay' });
    await dialog.getByLabel('Betrag').waitFor();
    // Words only the dialog has: without its own words they would be Lingui's ids.
    await dialog.getByText('Optional. Der Empfänger sieht sie.').waitFor();
    await dialog
      .getByText('Die 10-stellige Kontonummer oder die E-Mail-Adresse des Empfängers')
      .waitFor();
    expect(wordsAsked).toContain('features.transfers.index.de');
    const english = englishLeft('de');
    const { texts } = await page.evaluate(() => ({
      texts: Array.from(document.querySelectorAll('[role="dialog"] *')).flatMap((element) =>
        Array.from(element.childNodes)
          .filter((node) => node.nodeType === Node.TEXT_NODE)
          .map((node) => node.textContent?.trim() ?? '')
          .filter((text) => text !== ''),
      ),
    }));
    expect(texts.length).toBeGreaterThan(3);
    expect(texts.filter((text) => english.whole.has(text))).toEqual([]);
    expect(unexpectedProblems(problems)).toEqual([]);
  });

  it('speak Arabic right to left on every money page, on a phone too', async () => {
    for (const viewport of ['desktop', 'phone'] as const) {
      const { page, problems } = await openIn('ar', viewport);
      await page.goto('/statements');
      await waitForAppTakeover(page);
      await page.getByRole('heading', { level: 1, name: 'كشوف الحساب' }).waitFor();
      await expect(page.evaluate(() => document.documentElement.dir)).resolves.toBe('rtl');
      await page.goto('/dashboard');
      await page.getByText('الرصيد المتاح').waitFor();
      await expectNoEnglishLeft(page, 'ar');
      await expect(page.evaluate(() => document.documentElement.dir)).resolves.toBe('rtl');
      expect(unexpectedProblems(problems)).toEqual([]);
    }
  });
});
