// The credit pages in German, Japanese and Arabic (issue #35): loans with the cost disclosure, cards,
// bills, closing the account and exporting one's data, opened with the language cookie at
// 1280 and 390 px. Each page shows its own words in the language, none of the English of
// its feature's catalog, and Arabic lays out right to left.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { languageCookieName } from '@coffer/contracts/languages';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { unexpectedProblems } from './support/console.ts';
import {
  demo,
  setLevel,
  snapshotBothWidths,
  toast,
  userIdByEmail,
  waitForAppTakeover,
} from './support/pages.ts';
import { repoRoot } from './support/server.ts';
import { type OpenedPage, useServerAndBrowser } from './support/suite.ts';

const journeyTimeoutMs = 300_000;
const features = ['loans', 'cards', 'bills', 'account-closure', 'data-export'] as const;
type Language = 'de' | 'ja' | 'ar';

const suite = useServerAndBrowser();

/** A PO file's messages: id → translation (the header left out). */
function catalog(feature: string, language: string): Map<string, string> {
  const text = readFileSync(
    path.join(repoRoot, `apps/web/src/features/${feature}/locales/${language}.po`),
    'utf8',
  );
  const joined = (quoted: string) =>
    [...quoted.matchAll(/"(.*)"/g)].map((part) => JSON.parse(`"${part[1]}"`) as string).join('');
  const messages = new Map<string, string>();
  for (const block of text.split('\n\n')) {
    const id = /^msgid ((?:".*"\n?)+)msgstr ((?:".*"\n?)+)/m.exec(block);
    if (id?.[1] && id[2] && joined(id[1]) !== '') messages.set(joined(id[1]), joined(id[2]));
  }
  return messages;
}

function isSharedWord(piece: string, translation: string): boolean {
  return !piece.includes(' ') && translation.includes(piece);
}

/**
 * The English a page in `language` must not show: each source message's literal text (its
 * words between placeholders and tags), except words the translation keeps ("Status" is
 * German too). Long pieces are looked for anywhere; short ones as a whole element's text.
 */
function englishOf(language: Language): { anywhere: string[]; whole: string[] } {
  const anywhere = new Set<string>();
  const whole = new Set<string>();
  for (const feature of features) {
    for (const [id, translation] of catalog(feature, language)) {
      if (id.includes(', plural,')) continue;
      const pieces = id
        .split(/\{\w+\}|<\/?\d+>/)
        .map((piece) => piece.trim())
        // A single word the language shares ("Status" in German) is not English left over.
        .filter((piece) => /\p{L}{2}/u.test(piece) && !isSharedWord(piece, translation));
      for (const piece of pieces) {
        if (piece.length >= 16) anywhere.add(piece);
        else if (piece === id.trim()) whole.add(piece);
      }
    }
  }
  return { anywhere: [...anywhere], whole: [...whole] };
}

/** The English of the feature catalogs the page's <main> still shows. */
async function englishShown(page: Page, language: Language): Promise<string[]> {
  const english = englishOf(language);
  return page.locator('main').evaluate((main, { anywhere, whole }) => {
    // What is shown, not what the DOM holds: a closed dialog's words are not on the page.
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is the point.
    const text = (main as HTMLElement).innerText;
    const leaves = Array.from(main.querySelectorAll('*'))
      .filter((element) => element.children.length === 0)
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is the point.
      .map((element) => (element as HTMLElement).innerText?.trim() ?? '');
    const labels = Array.from(main.querySelectorAll('[aria-label]')).map(
      (element) => element.getAttribute('aria-label') ?? '',
    );
    return [
      ...anywhere.filter((piece) => text.includes(piece)),
      ...whole.filter((piece) => leaves.includes(piece) || labels.includes(piece)),
    ];
  }, english);
}

async function customerIn(language: Language, account: { email: string; password: string }) {
  const opened = await suite.openPage('desktop');
  const origin = new URL(suite.server.baseUrl);
  await opened.context.addCookies([
    { name: languageCookieName, value: language, domain: origin.hostname, path: '/' },
  ]);
  const login = await opened.context.request.post('/api/v1/auth/login', {
    data: account,
    headers: { origin: suite.server.baseUrl },
  });
  expect(login.status(), await login.text()).toBe(200);
  return opened;
}

/** Opens a page, waits for its heading in the language, and checks what it shows. */
async function openInLanguage(
  opened: OpenedPage,
  language: Language,
  route: string,
  heading: string,
): Promise<void> {
  const { page } = opened;
  await page.goto(route);
  await waitForAppTakeover(page);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  expect(await page.locator('html').getAttribute('lang')).toBe(language);
  expect(await page.locator('html').getAttribute('dir')).toBe(language === 'ar' ? 'rtl' : 'ltr');
  expect(await englishShown(page, language), `${route} in ${language}`).toEqual([]);
}

async function readyCustomer(email: string, eligibility = '5000'): Promise<void> {
  const admin = await suite.openPage('desktop');
  const login = await admin.context.request.post('/api/v1/auth/login', {
    data: demo.admin,
    headers: { origin: suite.server.baseUrl },
  });
  expect(login.status()).toBe(200);
  await admin.page.goto('/admin');
  const userId = await userIdByEmail(admin.page, suite.server.baseUrl, email);
  await setLevel(admin.page, suite.server.baseUrl, userId, {
    level: 2,
    reason: 'Identity checked at the branch',
  });
  const answer = await admin.context.request.put(`/api/v1/admin/users/${userId}/loan-eligibility`, {
    data: { amount: eligibility, reason: 'Salary slips checked' },
    headers: { origin: suite.server.baseUrl },
  });
  expect(answer.status(), await answer.text()).toBe(200);
}

/** The customer, what they type and what the pages say in the other two languages. */
const otherLanguages = [
  {
    language: 'ja' as const,
    about: 'instalments counted the Japanese way',
    customer: demo.yuki,
    eligibility: '500000',
    typed: { amount: '150000', months: '12' },
    labels: { amount: '希望借入額', months: '返済月数', disclosure: 'このローンの費用' },
    expected: { instalments: '12回（毎月）', rate: '8.00%' },
    headings: {
      loan: 'ローン',
      others: {
        '/cards': 'バーチャルカード',
        '/pay-bills': '請求書の支払い',
        '/close-account': '口座の解約',
        '/profile/export': 'お客様のデータ',
      },
    },
  },
  {
    language: 'ar' as const,
    // Arabic counts 11 to 99 with the singular in the accusative.
    about: 'right to left, with Arabic plurals',
    customer: demo.alice,
    eligibility: '5000',
    typed: { amount: '1200', months: '12' },
    labels: { amount: 'مبلغ القرض المطلوب', months: 'أشهر السداد', disclosure: 'تكلفة هذا القرض' },
    expected: { instalments: '12 قسطًا شهريًا', rate: '12.00٪' },
    headings: {
      loan: 'القروض',
      others: {
        '/cards': 'البطاقات الافتراضية',
        '/pay-bills': 'دفع الفواتير',
        '/close-account': 'إغلاق حسابك',
        '/profile/export': 'بياناتك',
      },
    },
  },
];

describe('the credit pages in German, Japanese and Arabic', () => {
  it(
    'shows loans with the cost disclosure, cards, bills, closing and export in German',
    async () => {
      await readyCustomer(demo.bruno.email);
      const bruno = await customerIn('de', demo.bruno);
      const { page } = bruno;

      await openInLanguage(bruno, 'de', '/loan', 'Kredite');
      await page.getByText('Genehmigter Kreditrahmen').first().waitFor();
      // An amount typed the German way is read as German writes it.
      await page.getByLabel('Gewünschter Kreditbetrag').fill('1.200,00');
      await page.getByLabel('Laufzeit in Monaten').fill('12');
      const disclosure = page.getByLabel('Kosten dieses Kredits');
      await disclosure.getByText('12 Monatsraten').waitFor();
      await disclosure.getByText('11,00 %').waitFor();
      await disclosure.getByText('Rückzahlungsbetrag gesamt').waitFor();
      expect(await englishShown(page, 'de')).toEqual([]);
      await snapshotBothWidths(page, 'credit-de-loan');

      // Amounts typed the German way reach the API as the amounts they are.
      await page.getByLabel('Vollständige Adresse').fill('Torstraße 1, Berlin');
      await page.getByLabel('Monatsgehalt').fill('3.500,00');
      await page.getByRole('button', { name: 'Antrag einreichen' }).click();
      await toast(page, 'Kreditantrag zur Prüfung durch einen Administrator eingereicht.');
      await page.getByText('Antrag in Prüfung').waitFor();

      // An admin reading German approves and pays it out from the loans queue.
      const admin = await customerIn('de', demo.admin);
      await openInLanguage(admin, 'de', '/admin/queues/loans', 'Kreditanträge');
      await admin.page
        .getByRole('region', { name: 'Anträge' })
        .getByRole('row')
        .filter({ hasText: '1.200,00' })
        .getByRole('button', { name: 'Genehmigen' })
        .click();
      await admin.page
        .getByRole('dialog', { name: 'Kredit genehmigen' })
        .getByRole('button', { name: 'Genehmigen' })
        .click();
      await toast(admin.page, 'Kredit genehmigt.');
      const toDisburse = admin.page.getByRole('region', { name: 'Auszuzahlen' });
      await toDisburse.getByRole('button', { name: 'Auszahlen' }).click();
      const disburse = admin.page.getByRole('dialog', { name: 'Kredit auszahlen' });
      await disburse.getByText(/über 12 Monate/).waitFor();
      await disburse.getByLabel('Begründung').fill('Antrag geprüft');
      await disburse.getByRole('button', { name: 'Kredit auszahlen' }).click();
      await toast(admin.page, 'Kredit ausgezahlt:');
      await toDisburse.getByText('Alle genehmigten Kredite wurden ausgezahlt.').waitFor();
      expect(await englishShown(admin.page, 'de')).toEqual([]);
      expect(unexpectedProblems(admin.problems)).toEqual([]);

      // The customer's loan with its schedule, in German.
      await openInLanguage(bruno, 'de', '/loan', 'Kredite');
      await page.getByRole('heading', { name: 'Ihr Kredit' }).waitFor();
      const schedule = page.getByRole('table', { name: 'Tilgungsplan' });
      await schedule.getByRole('columnheader', { name: 'Tilgung' }).waitFor();
      await schedule.getByText(/^Nr\. 12 · /).waitFor();
      await page.getByText('1.200,00 € zu 11,00 %').waitFor();
      expect(await englishShown(page, 'de')).toEqual([]);
      await snapshotBothWidths(page, 'credit-de-loan-active');

      await openInLanguage(bruno, 'de', '/cards', 'Virtuelle Karten');
      await page.getByRole('button', { name: 'Virtuelle Karte erhalten' }).waitFor();
      await snapshotBothWidths(page, 'credit-de-cards');

      await openInLanguage(bruno, 'de', '/pay-bills', 'Rechnungen bezahlen');
      await page.getByText('Verlauf der Rechnungszahlungen').waitFor();
      await snapshotBothWidths(page, 'credit-de-bills');

      await openInLanguage(bruno, 'de', '/close-account', 'Ihr Konto schließen');
      await page.getByText('Bevor Sie es schließen können').waitFor();
      await snapshotBothWidths(page, 'credit-de-close-account');

      await openInLanguage(bruno, 'de', '/profile/export', 'Ihre Daten');
      await page.getByRole('button', { name: 'Meine Daten exportieren' }).waitFor();
      await snapshotBothWidths(page, 'credit-de-export');

      expect(unexpectedProblems(bruno.problems)).toEqual([]);
    },
    journeyTimeoutMs,
  );

  it.each(otherLanguages)(
    'shows the same pages in $language ($about)',
    async ({ language, customer, eligibility, typed, labels, expected, headings }) => {
      await readyCustomer(customer.email, eligibility);
      const opened = await customerIn(language, customer);
      const { page } = opened;

      await openInLanguage(opened, language, '/loan', headings.loan);
      await page.getByLabel(labels.amount).fill(typed.amount);
      await page.getByLabel(labels.months).fill(typed.months);
      const disclosure = page.getByLabel(labels.disclosure);
      await disclosure.getByText(expected.instalments).waitFor();
      await disclosure.getByText(expected.rate).waitFor();
      expect(await englishShown(page, language)).toEqual([]);
      await snapshotBothWidths(page, `credit-${language}-loan`);

      for (const [route, heading] of Object.entries(headings.others)) {
        await openInLanguage(opened, language, route, heading);
        await snapshotBothWidths(page, `credit-${language}${route.replaceAll('/', '-')}`);
      }
      expect(unexpectedProblems(opened.problems)).toEqual([]);
    },
    journeyTimeoutMs,
  );
});
