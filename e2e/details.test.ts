// Words and details a customer meets on the dashboard and the profile: the 30-day chart says
// when its figure includes funds held for a pending withdrawal, the status badges fit their
// column at 1280 px, and "Activity on your account" lists a username, email or two-factor
// change as soon as it is made, without a reload.
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newCustomer, signUpInContext } from './support/accounts.ts';
import { screenshot } from './support/browser.ts';
import { unexpectedProblems } from './support/console.ts';
import {
  callApi,
  demo,
  hasNoHorizontalScroll,
  logIn,
  openDashboard,
  snapshot,
} from './support/pages.ts';
import { useServerAndBrowser } from './support/suite.ts';

const testTimeoutMs = 120_000;

const suite = useServerAndBrowser({ hasMailSink: true });

/**
 * Alice (a demo customer, USD) asks for a PayPal withdrawal through the API, confirmed with
 * the code emailed to her: the amount is held until staff send it. Then she sends a Quick
 * Pay with a long note, as real notes are: it fills the Description column, the column that
 * squeezes the status badge.
 */
async function aliceWithHeldFundsAndALongNote(amount: string): Promise<void> {
  // The emailed code confirms this amount to this destination only.
  const toHerPayPal = {
    method: 'paypal',
    email: 'alice.morgan@example.com',
    holderName: 'Alice Morgan',
  };
  const { page: adminApi } = await suite.openPage();
  expect(
    (await callApi(adminApi, suite.server.baseUrl, 'POST', '/api/v1/auth/login', demo.admin))
      .status,
  ).toBe(200);
  const found = await callApi(
    adminApi,
    suite.server.baseUrl,
    'GET',
    `/api/v1/admin/users?search=${encodeURIComponent(demo.alice.email)}`,
  );
  const aliceId = (found.json as { items: { id: string }[] }).items[0]?.id ?? '';
  const level = await callApi(
    adminApi,
    suite.server.baseUrl,
    'POST',
    `/api/v1/admin/users/${aliceId}/level`,
    {
      level: 2,
      reason: 'Identity checked for the dashboard details browser test',
    },
  );
  expect(level.status).toBe(200);

  const { page: aliceApi } = await suite.openPage();
  expect(
    (await callApi(aliceApi, suite.server.baseUrl, 'POST', '/api/v1/auth/login', demo.alice))
      .status,
  ).toBe(200);
  const askedAt = new Date();
  const challenge = await callApi(
    aliceApi,
    suite.server.baseUrl,
    'POST',
    '/api/v1/step-up/challenges',
    { purpose: 'payout', amount, destination: toHerPayPal },
  );
  expect(challenge.status).toBe(200);
  const mail = await suite.mailSink.waitForMail({
    to: demo.alice.email,
    subject: 'verification code',
    after: askedAt,
  });
  const stepUpCode = /\b(\d{6})\b/.exec(mail.subject)?.[1] ?? '';
  const payout = await aliceApi.request.post('/api/v1/payouts', {
    headers: { origin: suite.server.baseUrl, 'idempotency-key': `details-payout-${Date.now()}` },
    data: { ...toHerPayPal, amount, stepUpCode },
  });
  expect(payout.status(), await payout.text()).toBe(201);

  const { context: recipientContext } = await suite.openPage();
  const recipient = await signUpInContext(recipientContext, suite.server.baseUrl, newCustomer());
  const quickPay = await aliceApi.request.post('/api/v1/transfers', {
    headers: { origin: suite.server.baseUrl, 'idempotency-key': `details-quick-pay-${Date.now()}` },
    data: {
      recipient: recipient.email,
      amount: '5.00',
      note: 'Half of the weekend cabin, the ferry tickets there and back, and the groceries from the market on Saturday morning',
    },
  });
  expect(quickPay.status(), await quickPay.text()).toBe(201);
}

describe('dashboard details', () => {
  it(
    'says when the chart’s figure includes held funds, and fits the status badges at 1280 px',
    async () => {
      await aliceWithHeldFundsAndALongNote('30.00');
      const { page, problems } = await suite.openPage('desktop');
      await logIn(page, demo.alice);
      await openDashboard(page);
      const balance = page.getByRole('region', { name: 'Available Balance' });
      const show = balance.getByRole('button', { name: 'Show balance' });
      await balance.getByRole('button', { name: /balance/ }).waitFor();
      if (await show.isVisible()) await show.click();
      const chart = page.getByRole('region', { name: 'Balance, last 30 days' });
      await chart.getByText(/now, including \$30\.00 held for pending withdrawals\.$/).waitFor();

      const transactions = page.getByRole('table', { name: 'Transactions' });
      await transactions.getByText('Pending').waitFor();
      await transactions.getByText('Completed').first().waitFor();
      const badges = await transactions.locator('.mantine-Badge-label').evaluateAll((labels) =>
        labels.map((label) => ({
          text: label.textContent ?? '',
          isCut: label.scrollWidth > label.clientWidth,
        })),
      );
      expect(badges.length).toBeGreaterThan(1);
      expect(badges.filter((badge) => badge.isCut)).toEqual([]);
      await screenshot(page, 'details-dashboard-desktop');

      expect(unexpectedProblems(problems)).toEqual([]);

      const phone = await suite.openPage('phone');
      await logIn(phone.page, demo.alice);
      await openDashboard(phone.page);
      const phoneBalance = phone.page.getByRole('region', { name: 'Available Balance' });
      await phoneBalance.getByRole('button', { name: /balance/ }).waitFor();
      const phoneShow = phoneBalance.getByRole('button', { name: 'Show balance' });
      if (await phoneShow.isVisible()) await phoneShow.click();
      await phone.page
        .getByRole('region', { name: 'Balance, last 30 days' })
        .getByText(/held for pending withdrawals/)
        .waitFor();
      await screenshot(phone.page, 'details-dashboard-phone');
      expect(await hasNoHorizontalScroll(phone.page)).toBe(true);
      expect(unexpectedProblems(phone.problems)).toEqual([]);
    },
    testTimeoutMs,
  );
});

/** Marks the page, so a test can tell that what it sees came without a reload. */
async function markPage(page: Page): Promise<void> {
  await page.evaluate(() => {
    document.documentElement.dataset.testNotReloaded = 'yes';
  });
}

async function isSamePage(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.dataset.testNotReloaded === 'yes');
}

describe('the profile’s activity', () => {
  it(
    'lists username, email and two-factor changes as they are made',
    async () => {
      const { page, problems, context } = await suite.openPage('desktop');
      const customer = await signUpInContext(context, suite.server.baseUrl, newCustomer());
      await page.goto('/profile');
      const activity = page.getByRole('region', { name: 'Activity on your account' });
      await activity.waitFor();
      await markPage(page);
      const entry = (label: string) => activity.getByRole('listitem').filter({ hasText: label });

      await page.getByRole('button', { name: 'Edit Username' }).click();
      const rename = page.getByRole('dialog', { name: 'Edit Username' });
      await rename.getByLabel('Username').fill(`${customer.username} Renamed`);
      await rename.getByRole('button', { name: 'Save' }).click();
      await entry('Username changed').waitFor();

      await page.getByRole('button', { name: 'Update Email' }).click();
      const email = page.getByRole('dialog', { name: 'Update Email' });
      await email.getByLabel('New email').fill(`moved-${customer.email}`);
      await email.getByLabel('Current password').fill(customer.password);
      await email.getByRole('button', { name: 'Send link' }).click();
      await entry('Email change requested').waitFor();

      await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
      const twoFactor = page.getByRole('dialog', { name: 'Set up two-factor authentication' });
      await twoFactor.getByLabel('Current password').fill(customer.password);
      await twoFactor.getByRole('button', { name: 'Continue' }).click();
      const setupKey = await twoFactor.getByLabel('Setup key').inputValue();
      const totp = new TOTP({ secret: Secret.fromBase32(setupKey), digits: 6, period: 30 });
      await twoFactor.getByLabel('6-digit code').fill(totp.generate());
      await twoFactor.getByRole('button', { name: 'Turn on' }).click();
      await twoFactor.getByRole('button', { name: 'I have saved my codes' }).click();
      await entry('Two-factor authentication turned on').waitFor();

      expect(await isSamePage(page)).toBe(true);
      await snapshot(page, 'details-profile-activity-desktop');
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    testTimeoutMs,
  );
});
