// Paying from a chosen wallet end to end against the sandbox server (issue #33): Bruno
// (EUR main wallet, and a JPY one) changes euros into yen, then sends yen from the Transfer
// page to Yuki's JPY wallet, choosing the wallet, and both balances move; then he pays a
// bill in yen and withdraws yen from the same wallet, and asks for a card it funds.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { unexpectedProblems } from './support/console.ts';
import {
  callApi,
  demo,
  logIn,
  logInByApi,
  setLevel,
  toast,
  userIdByEmail,
} from './support/pages.ts';
import { useServerAndBrowser } from './support/suite.ts';
import { waitUntil } from './support/wait.ts';

const suite = useServerAndBrowser({ hasMailSink: true });

type WalletItem = {
  id: string;
  currency: string;
  accountNumber: string;
  balanceMinor: string;
  heldMinor: string;
};

/** Chooses the wallet in `currency` in the form's wallet choice. */
async function chooseWallet(page: Page, currency: string): Promise<void> {
  const choice = page.getByLabel('From wallet');
  await choice.waitFor();
  const label = (await choice.locator('option').allTextContents()).find((text) =>
    text.startsWith(`${currency} wallet`),
  );
  await choice.selectOption({ label: label ?? '' });
}

async function walletsOf(page: Page): Promise<WalletItem[]> {
  const answer = await callApi(page, suite.server.baseUrl, 'GET', '/api/v1/wallets');
  expect(answer.status).toBe(200);
  return (answer.json as { items: WalletItem[] }).items;
}

async function walletIn(page: Page, currency: string): Promise<WalletItem> {
  const wallet = (await walletsOf(page)).find((item) => item.currency === currency);
  if (!wallet) throw new Error(`no ${currency} wallet`);
  return wallet;
}

/** Changes euros into yen through the API, as the exchange page does. */
async function exchangeEuros(page: Page, amount: string): Promise<void> {
  const { baseUrl } = suite.server;
  const quoted = await callApi(page, baseUrl, 'POST', '/api/v1/exchange/quotes', {
    sellCurrency: 'EUR',
    receiveCurrency: 'JPY',
    side: 'sell',
    amount,
  });
  expect(quoted.status, JSON.stringify(quoted.json)).toBe(201);
  const { quoteId } = quoted.json as { quoteId: string };
  const accepted = await callApi(
    page,
    baseUrl,
    'POST',
    `/api/v1/exchange/quotes/${quoteId}/accept`,
    {},
  );
  expect(accepted.status, JSON.stringify(accepted.json)).toBe(201);
}

describe('paying from a chosen wallet', () => {
  beforeAll(async () => {
    // Withdrawals and cards open at level 2.
    const { baseUrl } = suite.server;
    const { page: admin } = await suite.openPage();
    await logInByApi(admin, baseUrl, demo.admin);
    await setLevel(admin, baseUrl, await userIdByEmail(admin, baseUrl, demo.bruno.email), {
      level: 2,
      reason: 'Identity verified by the test',
    });
  });

  it('a customer with EUR and JPY wallets sends yen to another customer’s JPY wallet', async () => {
    const { page, problems } = await suite.openPage();
    await logIn(page, demo.bruno);
    await exchangeEuros(page, '100.00');
    const yenBefore = await walletIn(page, 'JPY');
    const euroBefore = await walletIn(page, 'EUR');
    expect(BigInt(yenBefore.balanceMinor)).toBeGreaterThan(1500n);

    const { page: yuki } = await suite.openPage();
    await logInByApi(yuki, suite.server.baseUrl, demo.yuki);
    const yukiBefore = await walletIn(yuki, 'JPY');

    await page.goto('/transfer');
    await page.getByRole('heading', { level: 1, name: 'Transfer and withdraw' }).waitFor();
    // The choice comes with the list of wallets; the main (EUR) wallet is chosen first.
    const choice = page.getByLabel('From wallet');
    await choice.waitFor();
    await expect(choice.inputValue()).resolves.toBe(euroBefore.id);
    const yenLabel = (await choice.locator('option').allTextContents()).find((label) =>
      label.startsWith('JPY wallet'),
    );
    expect(yenLabel).toMatch(/¥[\d,]+ available/);
    await choice.selectOption({ label: yenLabel ?? '' });

    // The amount and the allowance follow the chosen wallet's currency.
    const amountField = page.getByRole('textbox', { name: 'Amount' });
    await page
      .getByTestId('allowance-transfer')
      .getByText(/You can still send ¥[\d,]+ today/)
      .waitFor();
    await page.getByLabel('Recipient').fill(yukiBefore.accountNumber);
    await amountField.focus();
    await page.getByText(/^Sending to Y\*\*\* T\*\*\* \(JPY\)$/).waitFor();
    // Yen have no decimals: the form says so before anything is sent.
    await amountField.fill('1500.50');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Invalid amount').waitFor();
    await amountField.fill('1500');
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.getByRole('heading', { name: 'Confirm payment' }).waitFor();
    await page.getByText(`JPY wallet · ${yenBefore.accountNumber}`).waitFor();
    await page.getByRole('button', { name: 'Send ¥1,500' }).click();
    await toast(page, 'Sent ¥1,500 to Y*** T***.');

    await waitUntil('both balances move', async () => {
      const yen = await walletIn(page, 'JPY');
      const yukis = await walletIn(yuki, 'JPY');
      return (
        BigInt(yen.balanceMinor) === BigInt(yenBefore.balanceMinor) - 1500n &&
        BigInt(yukis.balanceMinor) === BigInt(yukiBefore.balanceMinor) + 1500n
      );
    });
    // The euros stayed where they were.
    expect((await walletIn(page, 'EUR')).balanceMinor).toBe(euroBefore.balanceMinor);
    expect(unexpectedProblems(problems)).toEqual([]);
  });

  it('a customer pays a bill in yen from their JPY wallet', async () => {
    const { page, problems } = await suite.openPage();
    await logIn(page, demo.bruno);
    await exchangeEuros(page, '50.00');
    const yenBefore = await walletIn(page, 'JPY');
    const euroBefore = await walletIn(page, 'EUR');

    await page.goto('/pay-bills');
    await page.getByRole('heading', { level: 1, name: 'Pay Bills' }).waitFor();
    const choice = page.getByLabel('From wallet');
    await choice.waitFor();
    const yenLabel = (await choice.locator('option').allTextContents()).find((label) =>
      label.startsWith('JPY wallet'),
    );
    await choice.selectOption({ label: yenLabel ?? '' });
    await page
      .getByTestId('allowance-bill_payment')
      .getByText(/You can still pay ¥[\d,]+ in bills today/)
      .waitFor();
    await page.getByRole('combobox', { name: 'Bill' }).selectOption({ label: 'Rent' });
    await page.getByLabel('Biller reference').fill('FLAT-7');
    await page.getByLabel('Amount').fill('2000');
    await page.getByRole('button', { name: 'Pay Bill' }).click();
    await toast(page, 'Rent bill paid: ¥2,000');

    expect((await walletIn(page, 'JPY')).balanceMinor).toBe(
      String(BigInt(yenBefore.balanceMinor) - 2000n),
    );
    expect((await walletIn(page, 'EUR')).balanceMinor).toBe(euroBefore.balanceMinor);
    expect(unexpectedProblems(problems)).toEqual([]);
  });

  it('a customer withdraws yen from their JPY wallet, confirmed by the emailed code', async () => {
    const { page, problems } = await suite.openPage();
    await logIn(page, demo.bruno);
    await exchangeEuros(page, '30.00');
    const yenBefore = await walletIn(page, 'JPY');

    await page.goto('/transfer?tab=withdraw');
    await page.getByRole('heading', { name: 'Withdraw money' }).waitFor();
    await chooseWallet(page, 'JPY');
    await page
      .getByRole('region', { name: 'Available balance' })
      .getByText(/¥[\d,]+/)
      .waitFor();
    await page.getByLabel('Account holder name').fill('Bruno Keller');
    await page.getByLabel('Bank name').fill('Berliner Testbank');
    await page.getByLabel('Account number or IBAN').fill('DE89 3704 0044 0532 0130 00');
    await page.getByLabel('Amount').fill('3000');
    const askedAt = new Date();
    await page.getByRole('button', { name: 'Withdraw' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm withdrawal' });
    await dialog.getByText(`JPY wallet · ${yenBefore.accountNumber}`).waitFor();
    const mail = await suite.mailSink.waitForMail({
      to: demo.bruno.email,
      subject: 'verification code',
      after: askedAt,
    });
    expect(mail.text).toMatch(/withdraw JPY\s3,000 /);
    await dialog.getByLabel('Verification code').fill(/\b(\d{6})\b/.exec(mail.subject)?.[1] ?? '');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await toast(page, 'Withdrawal request pending approval.');

    const yenAfter = await walletIn(page, 'JPY');
    expect(yenAfter.heldMinor).toBe(String(BigInt(yenBefore.heldMinor) + 3000n));
    expect(yenAfter.balanceMinor).toBe(yenBefore.balanceMinor);
    expect(unexpectedProblems(problems)).toEqual([]);
  });

  it('a customer asks for a virtual card funded from their JPY wallet', async () => {
    const { baseUrl } = suite.server;
    const { page, problems } = await suite.openPage();
    await logIn(page, demo.bruno);
    const yen = await walletIn(page, 'JPY');

    await page.goto('/cards');
    await page.getByRole('heading', { level: 1, name: 'Virtual cards' }).waitFor();
    await chooseWallet(page, 'JPY');
    // The terms follow the wallet: the weekly limit in yen.
    await page.getByText(/Weekly spending limit: ¥[\d,]+/).waitFor();
    await page.getByRole('button', { name: 'Get Virtual Card' }).click();
    const dialog = page.getByRole('dialog', { name: 'Get a virtual card' });
    await dialog.getByText(`JPY wallet · ${yen.accountNumber}`).waitFor();
    await dialog.getByRole('button', { name: 'Request card' }).click();
    await toast(page, 'Card requested. Staff will review it soon.');

    const overview = await callApi(page, baseUrl, 'GET', '/api/v1/cards');
    expect((overview.json as { card: { currency: string; status: string } }).card).toMatchObject({
      currency: 'JPY',
      status: 'requested',
    });
    expect(unexpectedProblems(problems)).toEqual([]);
  });
});
