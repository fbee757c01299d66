// Several currencies and exchange end to end against the sandbox server (issue #33): a
// customer in Germany (EUR) at level 2 opens a JPY wallet, asks for a quote for 100.00 EUR,
// sees it count down, accepts it, and finds the exchange on both wallets' statements.
import { describe, expect, it } from 'vitest';
import { newCustomer, signUpInContext } from './support/accounts.ts';
import { unexpectedProblems } from './support/console.ts';
import { callApi, demo, logIn, setLevel, toast, userIdByEmail } from './support/pages.ts';
import { useServerAndBrowser } from './support/suite.ts';
import { waitUntil } from './support/wait.ts';

const suite = useServerAndBrowser();

/**
 * A customer in Germany (EUR) signed up in a page of their own, raised by the demo admin
 * (signed in in another page) to level 2, where wallets in other currencies open.
 */
async function germanCustomerAtLevelTwo(phone: string) {
  const { context, page, problems } = await suite.openPage();
  const { baseUrl } = suite.server;
  const customer = await signUpInContext(context, baseUrl, newCustomer({ country: 'DE', phone }));
  const { page: admin, problems: adminProblems } = await suite.openPage();
  await logIn(admin, demo.admin);
  const customerId = await userIdByEmail(admin, baseUrl, customer.email);
  await setLevel(admin, baseUrl, customerId, { level: 2, reason: 'Identity verified by the test' });
  return { page, problems, admin, adminProblems };
}

describe('exchange', () => {
  it('a German customer opens a JPY wallet, exchanges 100.00 EUR with a quote and finds both statements', async () => {
    const { page, problems } = await germanCustomerAtLevelTwo('+4930901820');
    const { baseUrl } = suite.server;
    const funded = await callApi(
      page,
      baseUrl,
      'POST',
      '/api/v1/wallet/test-money',
      { amount: '500.00' },
      {
        idempotencyKey: crypto.randomUUID(),
      },
    );
    expect(funded.status).toBe(201);

    await page.goto('/wallets');
    await page.getByRole('heading', { level: 1, name: 'Wallets' }).waitFor();
    await page.getByLabel('Currency', { exact: true }).selectOption('JPY');
    await page.getByRole('button', { name: 'Open wallet' }).click();
    await toast(page, 'Your JPY wallet is open');
    await page.getByRole('cell', { name: /^JPY/ }).waitFor();
    await expect(page.getByText(/Estimated total/).textContent()).resolves.toMatch(/€500\.00/);

    await page.goto('/exchange');
    await page.getByRole('heading', { level: 1, name: 'Exchange' }).waitFor();
    await expect(page.getByLabel('From wallet').inputValue()).resolves.toBe('EUR');
    await expect(page.getByLabel('To wallet').inputValue()).resolves.toBe('JPY');
    await page.getByLabel('Amount in EUR').fill('100.00');
    await page.getByRole('button', { name: 'Get a quote' }).click();

    const quote = page.getByRole('region', { name: 'Your quote' });
    await quote.waitFor();
    // The sandbox's table: 161.23 yen per euro, less its 0.5 % markup, rounded down.
    await expect(quote.getByRole('row', { name: /You pay/ }).textContent()).resolves.toContain(
      '€100.00',
    );
    await expect(quote.getByRole('row', { name: /You receive/ }).textContent()).resolves.toContain(
      '¥16,042',
    );
    await expect(quote.getByRole('row', { name: /Mid rate/ }).textContent()).resolves.toContain(
      '161.230000',
    );
    const countdown = quote.getByRole('timer');
    const secondsShown = async () =>
      Number(/(\d+) s/.exec((await countdown.textContent()) ?? '')?.[1]);
    const firstShown = await secondsShown();
    expect(firstShown).toBeGreaterThan(0);
    expect(firstShown).toBeLessThanOrEqual(30);
    await waitUntil(
      'the quote counts down',
      async () => (await secondsShown()) < firstShown,
      5_000,
    );

    await quote.getByRole('button', { name: 'Accept and exchange' }).click();
    await page.getByText('Exchanged', { exact: true }).waitFor();
    await page.getByText(/You paid €100\.00 and received ¥16,042/).waitFor();

    // Both statements: the main (EUR) wallet's first, then the JPY wallet's.
    await page.goto('/statements');
    await page.getByRole('heading', { level: 1, name: 'Statements' }).waitFor();
    await page
      .getByText(/Exchange EUR.100\.00 to JPY.16,042/)
      .first()
      .waitFor();
    // The choice of wallets comes with its own answer, after the statement's: wait for it.
    await waitUntil(
      'the JPY wallet is offered',
      async () => (await walletLabel(page, 'JPY')) !== null,
      15_000,
    );
    await page
      .getByLabel('Wallet', { exact: true })
      .selectOption({ label: (await walletLabel(page, 'JPY')) ?? '' });
    await waitUntil('the JPY statement shows', async () =>
      new URL(page.url()).searchParams.has('wallet'),
    );
    await page
      .getByText(/¥16,042/)
      .first()
      .waitFor();

    expect(unexpectedProblems(problems)).toEqual([]);
  });
});

describe('exchange markups set by staff', () => {
  it('an admin changes EUR/JPY’s markup with a reason, the next quote uses it, and the audit log names it', async () => {
    const { page, problems, admin, adminProblems } = await germanCustomerAtLevelTwo('+4930901821');
    const { baseUrl } = suite.server;
    const yen = await callApi(page, baseUrl, 'POST', '/api/v1/wallets', { currency: 'JPY' });
    expect(yen.status).toBe(201);

    await admin.goto('/admin/exchange-rates');
    await admin.getByRole('heading', { level: 1, name: 'Exchange rates' }).waitFor();
    const markups = admin.getByRole('region', { name: 'Markups' });
    const euroYen = markups.getByRole('row', { name: /EUR\/JPY/ });
    await expect(euroYen.textContent()).resolves.toMatch(/0\.50%.*Configured/);
    await euroYen.getByRole('button', { name: 'Change the markup of EUR/JPY' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Markup of EUR/JPY' });
    await dialog.getByLabel('Markup in basis points').fill('120');
    await dialog.getByLabel('Reason').fill('Yen liquidity costs more this week');
    await dialog.getByRole('button', { name: 'Save markup' }).click();
    await toast(admin, 'Markup of EUR/JPY saved');
    await waitUntil('the page shows the new markup', async () =>
      /1\.20%.*Set by Demo Admin on/.test((await euroYen.textContent()) ?? ''),
    );

    // The customer's next quote: 16 123 yen at mid less 1.2 %, rounded down.
    await page.goto('/exchange');
    await page.getByRole('heading', { level: 1, name: 'Exchange' }).waitFor();
    await page.getByLabel('Amount in EUR').fill('100.00');
    await page.getByRole('button', { name: 'Get a quote' }).click();
    const quote = page.getByRole('region', { name: 'Your quote' });
    await quote.waitFor();
    await expect(quote.getByRole('row', { name: /You receive/ }).textContent()).resolves.toContain(
      '¥15,929',
    );
    await expect(quote.getByRole('row', { name: /Our markup/ }).textContent()).resolves.toContain(
      '1.20%',
    );

    await admin.goto('/admin/audit');
    await admin
      .getByRole('row', { name: /Exchange markup changed/ })
      .first()
      .waitFor();

    // Back to the configured markup, through the same dialog: the file's other test expects it.
    await admin.goto('/admin/exchange-rates');
    await euroYen.getByRole('button', { name: 'Change the markup of EUR/JPY' }).click();
    await dialog.getByLabel('Reason').fill('The week is over');
    await dialog.getByRole('button', { name: 'Use the configured markup' }).click();
    await toast(admin, 'EUR/JPY uses the configured markup again');
    await waitUntil('the page shows the configured markup', async () =>
      /0\.50%.*Configured/.test((await euroYen.textContent()) ?? ''),
    );

    expect(unexpectedProblems(problems)).toEqual([]);
    expect(unexpectedProblems(adminProblems)).toEqual([]);
  });
});

/** The wallet select's label of the wallet in `currency` ("JPY · 1234567890"). */
async function walletLabel(
  page: import('playwright-core').Page,
  currency: string,
): Promise<string | null> {
  const labels = await page
    .getByLabel('Wallet', { exact: true })
    .locator('option')
    .allTextContents();
  return labels.find((label) => label.startsWith(currency)) ?? null;
}
