// The back office in German and Arabic (issue #35): staff pages follow the staff member's
// own language (the coffer-language cookie their choice writes). Each page is opened as a
// new load, must say its language on <html>, show its own words in it, and show none of
// the English words of the back office's catalogs (the features' en.po files) in its
// <main>; Arabic pages lay out right to left. Nothing overflows at 390 px.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { unexpectedProblems } from './support/console.ts';
import {
  demo,
  hasNoHorizontalScroll,
  logInByApi,
  snapshot,
  userIdByEmail,
} from './support/pages.ts';
import { repoRoot } from './support/server.ts';
import { useServerAndBrowser } from './support/suite.ts';

const journeyTimeoutMs = 240_000;
const features = ['admin', 'kyc', 'support', 'staff-home', 'audit', 'books', 'reports'];

type Catalog = Map<string, string>;

/** A PO file's messages, id → text ("msgid" → "msgstr"), placeholders as written. */
function readCatalog(feature: string, language: string): Catalog {
  const file = path.join(repoRoot, 'apps/web/src/features', feature, 'locales', `${language}.po`);
  const text = readFileSync(file, 'utf8');
  const unquote = (quoted: string) => JSON.parse(`"${quoted}"`) as string;
  const messages: Catalog = new Map();
  for (const match of text.matchAll(/^msgid "((?:[^"\\]|\\.)*)"\nmsgstr "((?:[^"\\]|\\.)*)"$/gm)) {
    const [, id = '', translation = ''] = match;
    if (id !== '') messages.set(unquote(id), unquote(translation));
  }
  return messages;
}

/**
 * The back office's English words that must not show on a page in `language`: each message
 * whose translation differs (a code like "KYC" or a name like "Quick Pay" may stay), as a
 * pattern matching a whole text with its values filled in.
 */
function englishPatterns(language: string, catalogs: readonly string[] = features): RegExp[] {
  const patterns = new Map<string, RegExp>();
  for (const feature of catalogs) {
    for (const [id, translation] of readCatalog(feature, language)) {
      // Plurals and selects are checked by their pages' own words, not read back here.
      if (translation === id || id.includes(', plural,')) continue;
      const escaped = id.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&').replaceAll(/\\\{\w+\\\}/g, '.+');
      patterns.set(id, new RegExp(`^${escaped.replaceAll(/<\/?\d+>/g, '')}$`));
    }
  }
  return [...patterns.values()];
}

/**
 * Words that other parts of a back-office page show in English until their own catalogs
 * have them, and that happen to be back-office words too: the staff role badge
 * (components/staff-role-badge.tsx), the email's "Verified" (components/email-with-status.tsx),
 * the reason field (components/staff-action-form.tsx) and the amount of the deposits
 * feature's account actions on a customer's page.
 */
const sharedComponentWords = new Set([
  'Admin',
  'Support',
  'Customer',
  'Verified',
  'Amount',
  'Reason',
]);

/** The texts of <main>'s elements, each as a person reads it (its own text nodes joined). */
async function textsOfMain(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const texts: string[] = [];
    for (const element of Array.from(document.querySelectorAll('main *'))) {
      if (!(element instanceof HTMLElement) || element.offsetParent === null) continue;
      const own = Array.from(element.childNodes)
        .filter((node) => node.nodeType === Node.TEXT_NODE)
        .map((node) => node.textContent ?? '')
        .join('')
        .trim();
      if (own !== '') texts.push(own);
      // A sentence made of several elements (a name in bold inside it) reads as one.
      const whole = (element.textContent ?? '').replaceAll(/\s+/g, ' ').trim();
      if (whole !== '' && whole !== own) texts.push(whole);
    }
    return texts;
  });
}

async function englishLeftOn(page: Page, patterns: RegExp[]): Promise<string[]> {
  const texts = await textsOfMain(page);
  return [
    ...new Set(
      texts.filter(
        (text) => !sharedComponentWords.has(text) && patterns.some((pattern) => pattern.test(text)),
      ),
    ),
  ];
}

type Language = 'de' | 'ar';

/** Each page with the heading it must show in the language (the customer's page: her name). */
const headings: Record<Language, Record<string, string>> = {
  de: {
    '/admin': 'Benutzer',
    '/admin/queues/kyc': 'KYC-Prüfungen',
    '/admin/queues/support': 'Support-Postfach',
    '/admin/audit': 'Prüfprotokoll',
    '/admin/books': 'Buchhaltung',
    '/admin/reports': 'Berichte',
    '/admin/exchange-rates': 'Wechselkurse',
  },
  ar: {
    '/admin': 'المستخدمون',
    '/admin/queues/kyc': 'قائمة التحقق من الهوية',
    '/admin/queues/support': 'صندوق الدعم',
    '/admin/audit': 'سجل التدقيق',
    '/admin/books': 'الدفاتر',
    '/admin/reports': 'التقارير',
    '/admin/exchange-rates': 'أسعار الصرف',
  },
};

/** A few words each page must show in the language, beyond its heading. */
const ownWords: Record<Language, Record<string, string[]>> = {
  de: {
    '/admin': ['Benutzer insgesamt', 'KYC-Status', 'Identität'],
    '/admin/books': ['Vorläufig', 'Sachkonto'],
    '/admin/audit': ['Wer', 'Bei wem'],
  },
  ar: {
    '/admin': ['إجمالي المستخدمين', 'حالة التحقق من الهوية'],
    '/admin/books': ['مؤقت', 'رمز الحساب'],
    '/admin/audit': ['من', 'لمن'],
  },
};

/** The customer page's loans tab (its name, the same as its heading) in each language. */
const pendingLoanRequests: Record<Language, string> = {
  de: 'Offene Kreditanträge',
  ar: 'طلبات القروض المعلّقة',
};

const suite = useServerAndBrowser();

describe('the back office in German and Arabic', () => {
  for (const language of ['de', 'ar'] as const) {
    it(
      `shows the staff pages in ${language}, ${language === 'ar' ? 'right to left, ' : ''}with no English of their catalogs left`,
      async () => {
        const { context, page, problems } = await suite.openPage();
        const { baseUrl } = suite.server;
        await page.goto('/');
        await logInByApi(page, baseUrl, demo.admin);
        await context.addCookies([{ name: 'coffer-language', value: language, url: baseUrl }]);
        const aliceId = await userIdByEmail(page, baseUrl, demo.alice.email);
        const patterns = englishPatterns(language);
        const pages: [string, string][] = [
          ...Object.entries(headings[language]),
          [`/admin/users/${aliceId}`, demo.alice.legalName],
        ];
        for (const [pagePath, heading] of pages) {
          await page.goto(pagePath);
          await page.getByRole('heading', { level: 1, name: heading }).waitFor();
          // The page's own data has come: no loader is left in <main>.
          await page.locator('main [role="status"]').first().waitFor({ state: 'detached' });
          expect(await page.locator('html').getAttribute('lang')).toBe(language);
          expect(await page.locator('html').getAttribute('dir')).toBe(
            language === 'ar' ? 'rtl' : 'ltr',
          );
          for (const words of ownWords[language][pagePath] ?? []) {
            await page.locator('main').getByText(words, { exact: true }).first().waitFor();
          }
          expect(await englishLeftOn(page, patterns), `English on ${pagePath}`).toEqual([]);
          const name = `back-office-${language}${pagePath.replaceAll(/\/|:/g, '-')}`;
          await snapshot(page, `${name.replace(aliceId, 'alice')}-desktop`);
        }

        // A tab's code and words load when it is opened (apps/web/page-words.ts): the loans
        // tab's heading is its own words, and none of the loans catalog's English is left.
        await page.goto(`/admin/users/${aliceId}`);
        await page.getByRole('tab', { name: pendingLoanRequests[language] }).click();
        const loansTab = page.getByRole('tabpanel', { name: pendingLoanRequests[language] });
        await loansTab
          .getByRole('heading', { level: 3, name: pendingLoanRequests[language] })
          .waitFor();
        await page.locator('main [role="status"]').first().waitFor({ state: 'detached' });
        const loansEnglish = englishPatterns(language, ['loans']);
        expect(await englishLeftOn(page, loansEnglish), 'English on the loans tab').toEqual([]);

        // The two busiest pages on a phone: nothing runs off the side.
        await page.setViewportSize({ width: 390, height: 844 });
        for (const pagePath of ['/admin', `/admin/users/${aliceId}`]) {
          await page.goto(pagePath);
          await page.locator('main h1').waitFor();
          await page.waitForTimeout(600);
          expect(await hasNoHorizontalScroll(page), `${pagePath} at 390 px`).toBe(true);
          const name = `back-office-${language}${pagePath.replaceAll('/', '-')}`;
          await snapshot(page, `${name.replace(aliceId, 'alice')}-phone`);
        }
        expect(unexpectedProblems(problems)).toEqual([]);
      },
      journeyTimeoutMs,
    );
  }
});
