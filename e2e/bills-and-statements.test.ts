// Bill payments and statements end to end against the sandbox server: Alice pays a bill,
// sees it in her history and her balance drop, then downloads this month's statement as
// CSV and PDF, marked as a sandbox's, and the CSV closes on the balance her dashboard shows.
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pdfPageTexts } from '../apps/api/test/pdf-text.ts';
import { seriousAxeViolations } from './support/axe.ts';
import type { ConsoleProblems, viewports } from './support/browser.ts';
import { unexpectedProblems } from './support/console.ts';
import {
  hasNoHorizontalScroll,
  logIn,
  minorUnitsOf,
  openDashboard,
  snapshot,
  toast,
} from './support/pages.ts';
import { useServerAndBrowser } from './support/suite.ts';

const journeyTimeoutMs = 180_000;

// The sandbox's published demo customer (apps/api/src/features/sandbox/seed.ts).
const alice = { email: 'alice@coffer.test', password: 'Sandbox-Customer-2026!' };
/** The sandbox's customer in Japan: one time zone, so her statements start in it. */
const yuki = { email: 'yuki@coffer.test', password: 'Sandbox-Customer-2026!' };
/** The narrowest phone the layout is built for. */
const narrowPhone = { width: 360, height: 780 };

const suite = useServerAndBrowser();

async function openPage(
  viewport: keyof typeof viewports = 'desktop',
): Promise<{ page: Page; problems: ConsoleProblems }> {
  const opened = await suite.openPage(viewport);
  if (viewport === 'phone') await opened.page.setViewportSize(narrowPhone);
  return opened;
}

/** The dashboard's Available Balance, shown with the eye toggle if it is hidden. */
async function dashboardBalance(page: Page): Promise<bigint> {
  await openDashboard(page);
  const figure = page.getByRole('region', { name: 'Available Balance' });
  const show = figure.getByRole('button', { name: 'Show balance' });
  await figure.getByRole('button', { name: /balance/ }).waitFor();
  if (await show.isVisible()) await show.click();
  await figure.getByRole('button', { name: 'Hide balance' }).waitFor();
  const shown = /[\d,]+\.\d{2}/.exec((await figure.textContent()) ?? '')?.[0];
  return minorUnitsOf(shown ?? '');
}

/** Clicks a download link and returns the downloaded file and the name it was saved as. */
async function download(page: Page, linkName: string): Promise<{ name: string; body: Buffer }> {
  const [saved] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: linkName }).click(),
  ]);
  return { name: saved.suggestedFilename(), body: await readFile(await saved.path()) };
}

/** RFC 4180 records: enough for the statement's CSV, whose only quoted fields are memos. */
function csvRecords(text: string): string[][] {
  return text
    .split('\r\n')
    .filter((line) => line !== '')
    .map((line) => line.split(','));
}

/**
 * Whether the Bill select and the choices in its list are drawn in the page's text colour
 * or dimmed (how far dimmed is left to the contrast check).
 */
async function billSelectColours(page: Page): Promise<{ select: string; options: string }> {
  return page.evaluate(() => {
    const select = document.querySelector<HTMLSelectElement>('select');
    if (!select) throw new Error('the pay bill form has its select');
    const probe = document.body.appendChild(document.createElement('span'));
    probe.style.color = 'var(--mantine-color-text)';
    const text = getComputedStyle(probe).color;
    probe.remove();
    const kind = (element: Element) =>
      getComputedStyle(element).color === text ? 'text' : 'dimmed';
    const optionKinds = new Set(
      Array.from(select.options, (option) => (option.disabled ? null : kind(option))),
    );
    optionKinds.delete(null);
    return { select: kind(select), options: [...optionKinds].join() };
  });
}

declare global {
  interface Window {
    layoutShiftTotal: number;
  }
}

/** Runs in the page before its scripts: adds up its layout shifts (CLS without windows). */
function recordLayoutShifts(): void {
  window.layoutShiftTotal = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as (PerformanceEntry & { value: number })[]) {
      window.layoutShiftTotal += entry.value;
    }
  }).observe({ type: 'layout-shift', buffered: true });
}

const currentMonth = new Date().toISOString().slice(0, 7);

/** What every file of a sandbox carries (apps/api/src/platform/sandbox-marking.ts). */
const sandboxMarking = 'SANDBOX — NOT A REAL ACCOUNT';

describe('bills and statements', () => {
  it(
    'pays a bill: the history shows it and the dashboard balance drops',
    async () => {
      const { page, problems } = await openPage();
      await logIn(page, alice);
      const balanceBefore = await dashboardBalance(page);

      await page.goto('/pay-bills');
      await page.getByRole('heading', { level: 1, name: 'Pay Bills' }).waitFor();
      const history = page.getByRole('region', { name: 'Bill Payment History' });
      await history.getByText('No bill payments yet').waitFor();
      const allowance = page.getByTestId('allowance-bill_payment');
      await allowance
        .getByText('You can still pay $500.00 in bills today, of your daily limit of $500.00.')
        .waitFor();

      // The native select's placeholder is dimmed like a text input's; its choices are not.
      const billSelect = page.getByRole('combobox', { name: 'Bill' });
      expect(await billSelectColours(page)).toEqual({ select: 'dimmed', options: 'text' });
      await page.getByRole('button', { name: 'Pay Bill' }).click();
      await page.getByText('Please select a bill and enter amount').first().waitFor();
      await page.getByLabel('Amount').fill('0');
      await page.getByRole('button', { name: 'Pay Bill' }).click();
      await page.getByText('Invalid amount', { exact: true }).waitFor();

      await billSelect.selectOption({ label: 'Electricity' });
      expect(await billSelectColours(page)).toEqual({ select: 'text', options: 'text' });
      await page.getByLabel('Biller reference').fill('ELEC-123456');
      await page.getByLabel('Amount').fill('12.34');
      await page.getByRole('button', { name: 'Pay Bill' }).click();
      await toast(page, 'Electricity bill paid: $12.34');

      const row = history.getByRole('row').filter({ hasText: 'ELEC-123456' });
      await row.waitFor();
      expect(await row.getByRole('cell').allTextContents()).toEqual([
        'Electricity',
        'ELEC-123456',
        '$12.34',
        expect.any(String),
        'Completed',
      ]);
      expect(await page.getByLabel('Biller reference').inputValue()).toBe('');
      await allowance.getByText('You can still pay $487.66 in bills today').waitFor();
      expect(await seriousAxeViolations(page, '/pay-bills')).toEqual([]);
      await snapshot(page, 'bills-desktop');
      await page.setViewportSize({ width: 390, height: 844 });
      await snapshot(page, 'bills-phone');

      expect(await dashboardBalance(page)).toBe(balanceBefore - 1234n);
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    journeyTimeoutMs,
  );

  it(
    'downloads the month as CSV and PDF, closing on the balance the dashboard shows',
    async () => {
      const { page, problems } = await openPage();
      await logIn(page, alice);
      const balanceMinor = await dashboardBalance(page);

      await page.goto('/statements');
      await page.getByRole('heading', { level: 1, name: 'Statements' }).waitFor();
      expect(await page.getByRole('textbox', { name: 'Month' }).inputValue()).toBe(currentMonth);
      const closing = page.getByRole('group', { name: 'Closing balance' });
      await closing.waitFor();
      expect(minorUnitsOf((await closing.textContent()) ?? '')).toBe(balanceMinor);
      await page
        .getByRole('table', { name: 'Statement entries' })
        .getByText('ELEC-123456')
        .waitFor();

      const csv = await download(page, 'Download CSV');
      expect(csv.name).toBe(`coffer-statement-${currentMonth}.csv`);
      const text = csv.body.toString('utf8');
      // A byte-order mark first, so spreadsheets read the file as UTF-8.
      expect(text.startsWith('\uFEFF')).toBe(true);
      const records = csvRecords(text.slice(1));
      // The server runs as a sandbox: its statements say so before anything else.
      expect(records[0]).toEqual([sandboxMarking]);
      expect(records[1]).toEqual([
        'Date (UTC)',
        'Type',
        'Description',
        'Amount',
        'Currency',
        'Balance',
      ]);
      expect(records[2]?.[1]).toBe('Opening balance');
      expect(records.some((record) => record.includes('Electricity bill (ref. ELEC-123456)'))).toBe(
        true,
      );
      const closingRecord = records.at(-1) ?? [];
      expect(closingRecord[1]).toBe('Closing balance');
      expect(minorUnitsOf(closingRecord[5] ?? '')).toBe(balanceMinor);

      const pdf = await download(page, 'Download PDF');
      expect(pdf.name).toBe(`coffer-statement-${currentMonth}.pdf`);
      expect(pdf.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const pages = await pdfPageTexts(pdf.body);
      expect(pages.length).toBeGreaterThan(0);
      for (const pageText of pages) expect(pageText).toContain(sandboxMarking);
      expect(pages.join('')).toContain('Electricity bill (ref. ELEC-123456)');

      await page.getByText('Date range', { exact: true }).click();
      await page.getByRole('textbox', { name: 'From', exact: true }).fill('2026-01-02');
      await page.getByRole('textbox', { name: 'To', exact: true }).fill('2026-01-01');
      await page.getByText('The last day cannot be before the first day').waitFor();
      expect(await page.getByRole('link', { name: 'Download CSV' }).count()).toBe(0);
      await page.getByRole('textbox', { name: 'From', exact: true }).fill(`${currentMonth}-01`);
      await page
        .getByRole('textbox', { name: 'To', exact: true })
        .fill(new Date().toISOString().slice(0, 10));
      await closing.waitFor();
      expect(minorUnitsOf((await closing.textContent()) ?? '')).toBe(balanceMinor);

      expect(await seriousAxeViolations(page, '/statements')).toEqual([]);
      await snapshot(page, 'statements-desktop');
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    journeyTimeoutMs,
  );

  it(
    'fits both pages on a 360 px phone',
    async () => {
      const { page, problems } = await openPage('phone');
      await logIn(page, alice);
      await page.addInitScript(recordLayoutShifts);
      await page.goto('/pay-bills');
      await page.getByTestId('allowance-bill_payment').waitFor();
      await page
        .getByRole('list', { name: 'Bill payments' })
        .getByText('Reference ELEC-123456')
        .waitFor();
      // The form stays where it first showed while the daily allowance arrives above it.
      expect(await page.evaluate(() => window.layoutShiftTotal)).toBeLessThan(0.01);
      expect(await hasNoHorizontalScroll(page)).toBe(true);
      expect(await seriousAxeViolations(page, '/pay-bills on a phone')).toEqual([]);
      await snapshot(page, 'bills-phone');

      await page.goto('/statements');
      await page.getByRole('list', { name: 'Statement entries' }).waitFor();
      expect(await hasNoHorizontalScroll(page)).toBe(true);
      expect(await seriousAxeViolations(page, '/statements on a phone')).toEqual([]);
      await snapshot(page, 'statements-phone');
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    journeyTimeoutMs,
  );

  it(
    'cuts statements in the customer’s time zone, from her country until she picks another',
    async () => {
      const { page, problems } = await openPage();
      await logIn(page, yuki);
      await page.goto('/statements');
      const entries = page.getByRole('table', { name: 'Statement entries' });
      await entries.getByRole('columnheader', { name: 'Date (Asia/Tokyo)' }).waitFor();

      await page.goto('/profile');
      const details = page.getByRole('region', { name: 'Account details' });
      await details.getByText('Asia/Tokyo', { exact: true }).waitFor();
      await details.getByText('Not chosen yet: statements use this one.').waitFor();
      await details.getByRole('button', { name: 'Edit Time Zone' }).click();
      const dialog = page.getByRole('dialog', { name: 'Change time zone' });
      await dialog.waitFor();
      const zone = dialog.getByLabel('Time zone');
      await zone.fill('Berlin');
      await page.getByRole('option', { name: 'Europe/Berlin' }).click();
      await dialog.getByRole('button', { name: 'Save' }).click();
      await toast(page, 'Your time zone has been updated.');
      await details.getByText('Europe/Berlin', { exact: true }).waitFor();
      expect(await details.getByText('Not chosen yet').count()).toBe(0);
      await page.setViewportSize({ width: 390, height: 844 });
      await snapshot(page, 'profile-time-zone-phone');

      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto('/statements');
      await entries.getByRole('columnheader', { name: 'Date (Europe/Berlin)' }).waitFor();
      const csv = await download(page, 'Download CSV');
      expect(csv.body.toString('utf8').split('\r\n')[1]).toBe(
        'Date (Europe/Berlin),Type,Description,Amount,Currency,Balance',
      );
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    journeyTimeoutMs,
  );
});
