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

describe('exchange', () => {
  it('a German customer opens a JPY wallet, exchanges 100.00 EUR with a quote and finds both statements', async () => {
    const { context, page, problems } = await suite.openPage();
    const { baseUrl } = suite.server;
    const customer = await signUpInContext(
      context,
      baseUrl,
      newCustomer({ country: 'DE', phone: '+4930901820' }),
    );

    // An admin raises the customer to level 2, where wallets in other currencies open.
    const { page: admin } = await suite.openPage();
    await logIn(admin, demo.admin);
    const customerId = await userIdByEmail(admin, baseUrl, customer.email);
    await setLevel(admin, baseUrl, customerId, {
      level: 2,
      reason: 'Identity verified by the test',
    });
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
