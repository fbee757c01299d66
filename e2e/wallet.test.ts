// The customer's wallet end to end against the sandbox server: the dashboard (hidden
// balance, copy, chart, transactions), Add money with sandbox test money, live updates
// when staff record a deposit in another session, and the broken-feed message.
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newCustomer, signUpInContext } from './support/accounts.ts';
import { seriousAxeViolations } from './support/axe.ts';
import {
  type ConsoleProblems,
  newContext,
  type viewports,
  watchConsole,
} from './support/browser.ts';
import { unexpectedProblems } from './support/console.ts';
import {
  balanceRegion,
  hasNoHorizontalScroll,
  openDashboard,
  shownBalanceMinor,
  snapshot,
  toast,
  waitForAppTakeover,
} from './support/pages.ts';
import { useServerAndBrowser } from './support/suite.ts';
import { waitUntil } from './support/wait.ts';

const journeyTimeoutMs = 120_000;

// The sandbox's published demo accounts (apps/api/src/features/sandbox/seed.ts).
const alice = { email: 'alice@coffer.test', password: 'Sandbox-Customer-2026!' };
const admin = { email: 'admin@coffer.test', password: 'Sandbox-Admin-2026!' };
/** Alice's seeded balance: 1,250.00 + 300.00 − 45.20. */
const aliceStartingMinor = 150_480n;

const depositInstructions =
  'Pay by bank transfer to Harbour Test Credit Union, sort code 00-00-00.\nQuote your 10-digit account number as the reference.';

const suite = useServerAndBrowser({
  site: { institutionName: 'Harbour Test', depositInstructions },
});

/** A browser context signed in through the API (this file is not about the login page). */
async function signedInPage(
  account: { email: string; password: string },
  viewport: keyof typeof viewports = 'desktop',
): Promise<{ page: Page; context: BrowserContext; problems: ConsoleProblems }> {
  const context = await newContext(suite.browser, { baseUrl: suite.server.baseUrl, viewport });
  suite.closeAfterTest(context);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: suite.server.baseUrl,
  });
  const login = await context.request.post('/api/v1/auth/login', {
    data: account,
    headers: { origin: suite.server.baseUrl },
  });
  expect(login.status(), await login.text()).toBe(200);
  const page = await context.newPage();
  return { page, context, problems: watchConsole(page) };
}

async function waitForBalance(page: Page, expectedMinor: bigint): Promise<void> {
  await waitUntil(
    `the balance shows ${expectedMinor} minor units`,
    async () => (await shownBalanceMinor(page)) === expectedMinor,
    10_000,
  );
}

function transactionRows(page: Page): Locator {
  return page.getByRole('table', { name: 'Transactions' }).getByRole('row');
}

function chartImage(page: Page): Locator {
  return page
    .getByRole('region', { name: 'Balance, last 30 days' })
    .getByRole('img', { name: 'Chart of the balance at the end of each day' });
}

/**
 * With amounts shown, the keyboard steps through the chart's days: it starts on today's
 * balance, Home, End and the arrow keys move, the pointer shows a day too, and a hidden
 * table gives screen readers every day.
 */
async function expectChartReadableByKeyboard(page: Page): Promise<void> {
  const chart = page.getByRole('region', { name: 'Balance, last 30 days' });
  const days = chart.getByRole('slider', { name: 'Balance by day' });
  const tooltipText = () =>
    chart
      .locator('strong')
      .filter({ hasText: /^Balance / })
      .textContent();
  await days.focus();
  expect(await days.getAttribute('aria-valuetext')).toMatch(/: \$1,504\.80$/);
  expect(await tooltipText()).toBe('Balance $1,504.80');
  await page.keyboard.press('Home');
  expect(await days.getAttribute('aria-valuetext')).toMatch(/: \$0\.00$/);
  expect(await tooltipText()).toBe('Balance $0.00');
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowLeft');
  expect(await days.inputValue()).toBe('28');
  const table = chart.getByRole('table', { name: 'Balance at the end of each day' });
  expect(await table.getByRole('row').count()).toBe(31);
  await days.blur();
  expect(await chart.locator('strong').count()).toBe(0);
}

async function openAliceDashboard(page: Page): Promise<void> {
  await openDashboard(page);
  await page.getByRole('heading', { level: 1, name: 'Hello, Alice Morgan' }).waitFor();
  await balanceRegion(page).waitFor();
}

describe('wallet', () => {
  it(
    'shows the balance only after the eye toggle, remembers it, and copies the account number',
    async () => {
      const { page, problems } = await signedInPage(alice);
      await openAliceDashboard(page);

      // Hidden as dots until asked for.
      const region = balanceRegion(page);
      await region.getByText('Hidden').waitFor();
      expect(await shownBalanceMinor(page)).toBeNull();
      // The chart keeps its shape but shows no amounts while the balance is hidden.
      const chart = page.getByRole('region', { name: 'Balance, last 30 days' });
      await chartImage(page).waitFor();
      await chart.getByText('Amounts are hidden: show your balance to see them.').waitFor();
      expect(await chart.textContent()).not.toMatch(/\$/);
      expect(await chart.getByRole('group').count()).toBe(0);
      await region.getByRole('button', { name: 'Show balance' }).click();
      await waitForBalance(page, aliceStartingMinor);
      expect(
        await region.getByRole('button', { name: 'Hide balance' }).getAttribute('aria-pressed'),
      ).toBe('true');
      await page.reload();
      await waitForAppTakeover(page);
      await balanceRegion(page).waitFor();
      await waitForBalance(page, aliceStartingMinor);

      // Copy: the number lands on the clipboard and the button says so for 2 s.
      const wallet = (await (await page.request.get('/api/v1/wallet')).json()) as {
        accountNumber: string;
      };
      await page.getByText(wallet.accountNumber).first().waitFor();
      await page.getByRole('button', { name: 'Copy account number' }).first().click();
      const copied = page.getByRole('button', { name: 'Copied!' });
      await copied.waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(wallet.accountNumber);
      await copied.waitFor({ state: 'hidden', timeout: 4_000 });

      // The seeded history, newest first, signed and coloured, and the lazy-loaded chart.
      const rows = transactionRows(page);
      await rows.filter({ hasText: 'Electricity bill' }).getByText('-$45.20').waitFor();
      const texts = await rows.allTextContents();
      expect(
        texts
          .slice(1)
          .map((text) => /Salary deposit|Cash deposit|Electricity bill/.exec(text)?.[0]),
      ).toEqual(['Electricity bill', 'Cash deposit', 'Salary deposit']);
      await rows.filter({ hasText: 'Salary deposit' }).getByText('Completed').waitFor();
      await chartImage(page).waitFor();
      await chart.getByText('$1,504.80 now.', { exact: false }).waitFor();
      await expectChartReadableByKeyboard(page);

      // Which shortcuts exist, and that each leads to a page, is e2e/shell.test.ts's.
      await page.getByRole('navigation', { name: 'Shortcuts' }).waitFor();

      await snapshot(page, 'wallet-dashboard-desktop');
      expect(await seriousAxeViolations(page, '/dashboard')).toEqual([]);
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    journeyTimeoutMs,
  );

  it(
    'adds sandbox test money and updates the balance and transactions without a reload',
    async () => {
      const { page, problems } = await signedInPage(alice);
      await openAliceDashboard(page);
      await balanceRegion(page).getByRole('button', { name: 'Show balance' }).click();
      const startingMinor = (await shownBalanceMinor(page)) ?? 0n;

      await page.getByRole('link', { name: 'Add Money' }).click();
      await page.getByRole('heading', { level: 1, name: 'Add money' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/dashboard/deposit');
      const funding = page.getByRole('region', { name: 'Fund your wallet' });
      await funding.getByRole('button', { name: 'Copy account number' }).waitFor();
      await funding.getByText('Quote your 10-digit account number as the reference.').waitFor();
      // The table a desktop shows (the phone's cards are there too, hidden by CSS).
      const recent = page.getByRole('table', { name: 'Recent Transactions' });
      await recent.getByText('Salary deposit').waitFor();
      expect(await recent.getByText('Electricity bill').count()).toBe(0);

      const testMoney = page.getByRole('region', { name: 'Add test money' });
      await testMoney.getByText('Sandbox only').waitFor();
      await testMoney.getByLabel('Amount').fill('10000.01');
      await testMoney.getByRole('button', { name: 'Add test money' }).click();
      await testMoney.getByText('Test money is limited to $10,000.00 per request.').waitFor();
      await testMoney.getByLabel('Amount').fill('250.00');
      await testMoney.getByRole('button', { name: 'Add test money' }).click();
      await toast(page, 'Added $250.00 of test money to your wallet.');
      await waitForBalance(page, startingMinor + 25_000n);
      await recent.getByText('Sandbox test money').waitFor();
      expect(await testMoney.getByLabel('Amount').inputValue()).toBe('');
      await snapshot(page, 'wallet-add-money-desktop');
      expect(await seriousAxeViolations(page, '/dashboard/deposit')).toEqual([]);

      // Back on the dashboard through the menu (no reload): the new line is first.
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Dashboard' })
        .click();
      await balanceRegion(page).waitFor();
      await waitForBalance(page, startingMinor + 25_000n);
      const first = transactionRows(page).nth(1);
      await waitUntil('the test money is the newest transaction', async () =>
        ((await first.textContent()) ?? '').includes('Sandbox test money'),
      );
      await first.getByText('+$250.00').waitFor();
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    journeyTimeoutMs,
  );

  it(
    'shows a deposit staff record in another session on the open dashboard at once',
    async () => {
      const { page, problems } = await signedInPage(alice);
      await openAliceDashboard(page);
      await balanceRegion(page).getByRole('button', { name: 'Show balance' }).click();
      const startingMinor = (await shownBalanceMinor(page)) ?? 0n;
      const navigations: string[] = [];
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame()) navigations.push(frame.url());
      });

      const staff = await signedInPage(admin);
      const staffRequest = staff.context.request;
      const found = await staffRequest.get('/api/v1/admin/users?search=alice%40coffer.test');
      const aliceId = ((await found.json()) as { items: { id: string }[] }).items[0]?.id;
      expect(aliceId).toBeDefined();
      const deposit = await staffRequest.post(`/api/v1/admin/users/${aliceId}/deposits`, {
        data: { amount: '42.00', externalReference: 'LIVE-0001', reason: 'Branch cash deposit' },
        headers: { origin: suite.server.baseUrl, 'idempotency-key': `live-${Date.now()}` },
      });
      expect(deposit.status(), await deposit.text()).toBe(201);

      await waitForBalance(page, startingMinor + 4_200n);
      await transactionRows(page)
        .filter({ hasText: 'Deposit (ref. LIVE-0001)' })
        .getByText('+$42.00')
        .waitFor();
      expect(navigations).toEqual([]);
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    journeyTimeoutMs,
  );

  it(
    'describes a Quick Pay with the other customer’s masked name on both dashboards',
    async () => {
      const recipientContext = await newContext(suite.browser, {
        baseUrl: suite.server.baseUrl,
        viewport: 'desktop',
      });
      suite.closeAfterTest(recipientContext);
      const recipient = await signUpInContext(
        recipientContext,
        suite.server.baseUrl,
        newCustomer(),
      );
      const recipientPage = await recipientContext.newPage();
      await openDashboard(recipientPage);
      await recipientPage.getByText('No transactions yet').waitFor();

      const { page, problems } = await signedInPage(alice);
      await openAliceDashboard(page);
      await page.getByRole('button', { name: 'Quick Pay', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Quick Pay' });
      await dialog.getByLabel('Recipient').fill(recipient.email);
      await dialog.getByLabel('Amount').focus();
      const maskedRecipient = recipient.username.replace(/(\S)\S*/g, '$1***');
      await dialog.getByText(`Sending to ${maskedRecipient} (USD)`).waitFor();
      await dialog.getByLabel('Amount').fill('5.00');
      await dialog.getByRole('button', { name: 'Continue' }).click();
      await dialog.getByRole('button', { name: 'Send $5.00' }).click();
      await dialog.waitFor({ state: 'hidden' });

      await transactionRows(page)
        .filter({ hasText: `Quick Pay to ${maskedRecipient}` })
        .getByText('-$5.00')
        .waitFor();
      await transactionRows(recipientPage)
        .filter({ hasText: 'Quick Pay from A*** M***' })
        .getByText('+$5.00')
        .waitFor();
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    journeyTimeoutMs,
  );

  it(
    'says "Error loading transactions" while the live feed is down, and recovers',
    async () => {
      const { page, problems } = await signedInPage(alice);
      await page.route('**/api/v1/events', (route) =>
        route.fulfill({ status: 503, json: { error: { code: 'unavailable', message: 'down' } } }),
      );
      await openAliceDashboard(page);
      const transactions = page.getByRole('region', { name: 'Transactions' });
      const broken = transactions
        .getByRole('alert')
        .filter({ hasText: 'Error loading transactions' });
      await broken.waitFor({ timeout: 15_000 });
      // What was loaded stays on screen.
      await transactions.getByRole('table').getByText('Salary deposit').waitFor();
      await page.unroute('**/api/v1/events');
      await broken.waitFor({ state: 'hidden', timeout: 20_000 });
      expect(unexpectedProblems(problems, [{ path: '/api/v1/events', status: 503 }])).toEqual([]);
    },
    journeyTimeoutMs,
  );

  it(
    'fits a 360 px phone: dashboard and Add money',
    async () => {
      const { page, problems } = await signedInPage(alice, 'phone');
      await page.setViewportSize({ width: 360, height: 780 });
      await openAliceDashboard(page);
      await balanceRegion(page).getByRole('button', { name: 'Show balance' }).click();
      await page.getByRole('list', { name: 'Transactions' }).getByText('Salary deposit').waitFor();
      await chartImage(page).waitFor();
      expect(await hasNoHorizontalScroll(page)).toBe(true);
      await snapshot(page, 'wallet-dashboard-360');

      await page.getByRole('link', { name: 'Add Money' }).click();
      await page.getByRole('heading', { level: 1, name: 'Add money' }).waitFor();
      await page
        .getByRole('list', { name: 'Recent Transactions' })
        .getByText('Salary deposit')
        .waitFor();
      expect(await hasNoHorizontalScroll(page)).toBe(true);
      await snapshot(page, 'wallet-add-money-360');
      expect(await seriousAxeViolations(page, '/dashboard/deposit at 360 px')).toEqual([]);
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    journeyTimeoutMs,
  );
});
