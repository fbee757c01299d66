// Quick Pay end to end against the sandbox server: sending by account number from the
// Transfer page and by email from the dashboard's dialog, the recipient's balance moving
// live, a step-up code read from a real mailbox, a currency mismatch, and a frozen sender.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { newCustomer, signUpInContext, type TestCustomer } from './support/accounts.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { newContext } from './support/browser.ts';
import { unexpectedProblems } from './support/console.ts';
import {
  callApi,
  demo,
  hasNoHorizontalScroll,
  logIn,
  openDashboard,
  snapshot,
  toast,
} from './support/pages.ts';
import { useServerAndBrowser } from './support/suite.ts';

const journeyTimeoutMs = 180_000;

/** A second USD customer, signed in in their own browser, who receives Alice's money. */
let recipient: { customer: TestCustomer; page: Page; accountNumber: string; maskedName: string };

const suite = useServerAndBrowser({ hasMailSink: true });

/** What the server does: the first letter of each word of the name, then ***. */
function masked(username: string): string {
  return username
    .split(/\s+/)
    .map((word) => `${word[0]}***`)
    .join(' ');
}

/** An admin, signed in through the API in a context of their own, and Alice's id. */
async function adminWithAlice(): Promise<{ admin: Page; aliceId: string }> {
  const { page: admin } = await suite.openPage();
  const login = await callApi(
    admin,
    suite.server.baseUrl,
    'POST',
    '/api/v1/auth/login',
    demo.admin,
  );
  expect(login.status).toBe(200);
  const found = await callApi(
    admin,
    suite.server.baseUrl,
    'GET',
    '/api/v1/admin/users?search=alice%40coffer.test',
  );
  const { items } = found.json as { items: { id: string }[] };
  const aliceId = items[0]?.id ?? '';
  expect(aliceId).not.toBe('');
  return { admin, aliceId };
}

async function recipientShowsBalance(amount: string): Promise<void> {
  await recipient.page
    .getByRole('region', { name: 'Available Balance' })
    .getByText(amount, { exact: true })
    .waitFor({ timeout: 10_000 });
}

/** Fills the Quick Pay form (on the page or in the dialog) and waits for the preview. */
async function fillQuickPay(
  scope: Page | ReturnType<Page['getByRole']>,
  payment: { recipient: string; amount: string; note?: string; preview: string },
): Promise<void> {
  await scope.getByLabel('Recipient').fill(payment.recipient);
  await scope.getByLabel('Amount').focus();
  await scope.getByText(payment.preview).waitFor();
  await scope.getByLabel('Amount').fill(payment.amount);
  if (payment.note) await scope.getByLabel('Note').fill(payment.note);
}

describe('Quick Pay', () => {
  beforeAll(async () => {
    // The recipient's context lives for the whole file (it watches its balance move), so it
    // is not closed after each test; closing the browser closes it.
    const context = await newContext(suite.browser, {
      baseUrl: suite.server.baseUrl,
      viewport: 'desktop',
    });
    const page = await context.newPage();
    const customer = await signUpInContext(page.context(), suite.server.baseUrl, newCustomer());
    const wallet = await callApi(page, suite.server.baseUrl, 'GET', '/api/v1/wallet');
    expect(wallet.status).toBe(200);
    const { accountNumber } = wallet.json as { accountNumber: string };
    await openDashboard(page);
    await page.getByRole('button', { name: 'Show balance' }).click();
    recipient = { customer, page, accountNumber, maskedName: masked(customer.username) };
    await recipientShowsBalance('$0.00');
  }, journeyTimeoutMs);

  it(
    'sends by account number from the Transfer page, once, and the recipient sees it live',
    async () => {
      const { page, problems } = await suite.openPage();
      await logIn(page, demo.alice);
      await page.goto('/transfer');
      await page.getByRole('heading', { level: 1, name: 'Transfer and withdraw' }).waitFor();
      expect(
        await page
          .getByRole('tab', { name: 'Send to a Coffer customer' })
          .getAttribute('aria-selected'),
      ).toBe('true');
      await page.getByText('No transfers yet').waitFor();
      await snapshot(page, 'transfer-page-desktop');
      const violations = await seriousAxeViolations(page, '/transfer');

      // The day's allowance, up front, and again after the payment.
      const allowance = page.getByTestId('allowance-transfer');
      await allowance
        .getByText('You can still send $500.00 today, of your daily limit of $500.00.')
        .waitFor();
      const preview = `Sending to ${recipient.maskedName} (USD)`;
      await fillQuickPay(page, {
        recipient: recipient.accountNumber,
        amount: '12.34',
        note: 'Dinner',
        preview,
      });
      await snapshot(page, 'transfer-preview-desktop');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('heading', { name: 'Confirm payment' }).waitFor();
      await page.getByText('Dinner').waitFor();
      await page.getByText('No fee').waitFor();
      // Under the step-up threshold: no verification code is asked for.
      expect(await page.getByLabel('Verification code').count()).toBe(0);
      await snapshot(page, 'transfer-confirm-desktop');
      violations.push(...(await seriousAxeViolations(page, 'confirm payment')));

      // A double click sends one payment: the button is disabled and the key is the same.
      await page.getByRole('button', { name: 'Send $12.34' }).dblclick();
      await toast(page, `Sent $12.34 to ${recipient.maskedName}.`);
      expect(await page.getByLabel('Recipient').inputValue()).toBe('');
      expect(await page.getByLabel('Amount').inputValue()).toBe('');
      const recent = page.getByRole('region', { name: 'Recent transfers' });
      await recent.getByText(`To ${recipient.maskedName}`).waitFor();
      await recent.getByText('-$12.34').waitFor();
      const sent = await callApi(page, suite.server.baseUrl, 'GET', '/api/v1/transfers');
      expect((sent.json as { items: unknown[] }).items).toHaveLength(1);
      await recipientShowsBalance('$12.34');
      await allowance.getByText('You can still send $487.66 today').waitFor();

      // The withdraw tab is in the address, so a link can open it.
      await page.getByRole('tab', { name: 'Withdraw to an external account' }).click();
      expect(new URL(page.url()).searchParams.get('tab')).toBe('withdraw');
      await page.goto('/transfer?tab=withdraw');
      expect(
        await page
          .getByRole('tab', { name: 'Withdraw to an external account' })
          .getAttribute('aria-selected'),
      ).toBe('true');

      expect(violations).toEqual([]);
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    journeyTimeoutMs,
  );

  it(
    'sends by email from the dashboard’s Quick Pay dialog',
    async () => {
      const { page, problems } = await suite.openPage();
      await logIn(page, demo.alice);
      await page.getByRole('button', { name: 'Quick Pay', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Quick Pay' });
      await fillQuickPay(dialog, {
        recipient: recipient.customer.email,
        amount: '7.66',
        preview: `Sending to ${recipient.maskedName} (USD)`,
      });
      await dialog.getByRole('button', { name: 'Continue' }).click();
      await dialog.getByRole('heading', { name: 'Confirm payment' }).waitFor();
      await snapshot(page, 'quick-pay-dialog-confirm-desktop');
      const violations = await seriousAxeViolations(page, 'Quick Pay dialog');
      await dialog.getByRole('button', { name: 'Send $7.66' }).click();
      await toast(page, `Sent $7.66 to ${recipient.maskedName}.`);
      await dialog.waitFor({ state: 'hidden' });
      await recipientShowsBalance('$20.00');

      expect(violations).toEqual([]);
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    journeyTimeoutMs,
  );

  it(
    'refuses a level-1 Quick Pay over the daily limit before asking for a code',
    async () => {
      for (const viewport of ['desktop', 'phone'] as const) {
        const { page, problems } = await suite.openPage(viewport);
        await logIn(page, demo.alice);
        await page.goto('/transfer');
        await page.getByText('You can still send $480.00 today').waitFor();
        await fillQuickPay(page, {
          recipient: recipient.accountNumber,
          amount: '1000',
          preview: `Sending to ${recipient.maskedName} (USD)`,
        });
        const askedAt = new Date();
        await page.getByRole('button', { name: 'Continue' }).click();
        await page.getByRole('heading', { name: 'Confirm payment' }).waitFor();
        await page
          .getByText(
            'This would go over your daily limit of $500.00. You can still send $480.00 today.',
          )
          .waitFor();
        // No code is asked for, and none is emailed.
        expect(await page.getByLabel('Verification code').count()).toBe(0);
        expect(await hasNoHorizontalScroll(page), viewport).toBe(true);
        await snapshot(page, `transfer-over-limit-${viewport}`);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        expect(
          suite.mailSink.messages.filter(
            (mail) =>
              mail.to.includes(demo.alice.email) &&
              mail.subject.includes('verification code') &&
              mail.receivedAt >= askedAt,
          ),
        ).toEqual([]);
        expect(
          unexpectedProblems(problems, [{ path: '/api/v1/step-up/challenges', status: 409 }]),
        ).toEqual([]);
      }
    },
    journeyTimeoutMs,
  );

  it(
    'asks for the code emailed to the sender at 1,000.00 and above',
    async () => {
      const { admin, aliceId } = await adminWithAlice();
      // Level 1 may send only 500.00 a day; level 2 may send 5,000.00.
      const level = await callApi(
        admin,
        suite.server.baseUrl,
        'POST',
        `/api/v1/admin/users/${aliceId}/level`,
        {
          level: 2,
          reason: 'Browser test of the step-up code',
        },
      );
      expect(level.status).toBe(200);

      const { page, problems } = await suite.openPage();
      await logIn(page, demo.alice);
      await page.goto('/transfer');
      await fillQuickPay(page, {
        recipient: recipient.accountNumber,
        amount: '1000',
        preview: `Sending to ${recipient.maskedName} (USD)`,
      });
      const askedAt = new Date();
      await page.getByRole('button', { name: 'Continue' }).click();
      const codeField = page.getByLabel('Verification code');
      await page.getByText(/We emailed a 6-digit code to a\*\*\*@coffer\.test/).waitFor();
      const mail = await suite.mailSink.waitForMail({
        to: demo.alice.email,
        subject: 'verification code',
        after: askedAt,
      });
      const code = /\b(\d{6})\b/.exec(mail.text)?.[1] ?? '';
      expect(code).toMatch(/^\d{6}$/);
      await snapshot(page, 'transfer-confirm-step-up-desktop');

      await codeField.fill(code === '000000' ? '111111' : '000000');
      await page.getByRole('button', { name: 'Send $1,000.00' }).click();
      await page.getByText('Wrong verification code. Please try again.').waitFor();
      await codeField.fill(code);
      await page.getByRole('button', { name: 'Send $1,000.00' }).click();
      await toast(page, `Sent $1,000.00 to ${recipient.maskedName}.`);
      await recipientShowsBalance('$1,020.00');

      expect(unexpectedProblems(problems, [{ path: '/api/v1/transfers', status: 400 }])).toEqual(
        [],
      );
    },
    journeyTimeoutMs,
  );

  it(
    'refuses a recipient in another currency as it refuses nobody, stating the rule',
    async () => {
      const { page, problems } = await suite.openPage();
      await logIn(page, demo.alice);
      await page.goto('/transfer');
      const refused =
        "We can't send to this recipient. Check the account number or email; Quick Pay works only between Coffer wallets in the same currency.";
      await page.getByLabel('Recipient').fill(demo.bruno.email);
      await page.getByLabel('Amount').fill('5');
      await page.getByText(refused).waitFor();
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByText(refused).first().waitFor();
      expect(await page.getByRole('heading', { name: 'Confirm payment' }).count()).toBe(0);

      await page.getByLabel('Recipient').fill('nobody-here@example.com');
      await page.getByLabel('Amount').focus();
      await page.getByText(refused).waitFor();
      expect(
        unexpectedProblems(problems, [
          { path: '/api/v1/transfers/recipient-preview', status: 404 },
        ]),
      ).toEqual([]);
    },
    journeyTimeoutMs,
  );

  it(
    'fits a 360 px phone',
    async () => {
      const { page, problems } = await suite.openPage('phone');
      await page.setViewportSize({ width: 360, height: 800 });
      await logIn(page, demo.alice);
      await page.goto('/transfer');
      await page.getByText('Recent transfers').waitFor();
      await page.getByText(`To ${recipient.maskedName}`).first().waitFor();
      expect(await hasNoHorizontalScroll(page), 'transfer page').toBe(true);
      await snapshot(page, 'transfer-page-360');
      await fillQuickPay(page, {
        recipient: recipient.accountNumber,
        amount: '1.00',
        note: 'Coffee',
        preview: `Sending to ${recipient.maskedName} (USD)`,
      });
      await snapshot(page, 'transfer-preview-360');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('heading', { name: 'Confirm payment' }).waitFor();
      expect(await hasNoHorizontalScroll(page), 'confirmation').toBe(true);
      await snapshot(page, 'transfer-confirm-360');

      await openDashboard(page);
      await page.getByRole('button', { name: 'Quick Pay', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Quick Pay' });
      await dialog.getByLabel('Recipient').waitFor();
      expect(await hasNoHorizontalScroll(page), 'Quick Pay dialog').toBe(true);
      await snapshot(page, 'quick-pay-dialog-360');
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    journeyTimeoutMs,
  );

  it(
    'shows a frozen sender the Account frozen dialog with the reason',
    async () => {
      const reason = 'Suspicious activity reported by the customer';
      const { page, problems } = await suite.openPage();
      await logIn(page, demo.alice);
      await page.goto('/transfer');
      await fillQuickPay(page, {
        recipient: recipient.accountNumber,
        amount: '2.00',
        preview: `Sending to ${recipient.maskedName} (USD)`,
      });
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('heading', { name: 'Confirm payment' }).waitFor();

      // Frozen while the confirmation is open: the server refuses, with staff's reason.
      const { admin, aliceId } = await adminWithAlice();
      const frozen = await callApi(
        admin,
        suite.server.baseUrl,
        'POST',
        `/api/v1/admin/users/${aliceId}/freeze`,
        {
          reason,
        },
      );
      expect(frozen.status).toBe(200);
      // The live update puts the banner above the page; clicking Send while it slides in
      // could miss the button, so wait for it (it is part of what a frozen sender sees).
      await page.getByRole('alert', { name: 'Transactions disabled' }).waitFor();
      const message = `Transactions are disabled on your account: ${reason}. Contact support to have them re-enabled.`;
      await page.getByRole('button', { name: 'Send $2.00' }).click();
      const dialog = page.getByRole('dialog', { name: 'Account frozen' });
      await dialog.getByText(message).waitFor();
      await snapshot(page, 'transfer-frozen-desktop');
      await dialog.getByRole('button', { name: 'OK', exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });

      // Sent again, the server says the same: the order of the checks is the server's.
      await page.getByRole('button', { name: 'Send $2.00' }).click();
      await dialog.getByText(message).waitFor();
      await dialog.getByRole('button', { name: 'OK', exact: true }).click();
      await recipientShowsBalance('$1,020.00');

      const unfrozen = await callApi(
        admin,
        suite.server.baseUrl,
        'POST',
        `/api/v1/admin/users/${aliceId}/unfreeze`,
        {
          reason: 'Cleared by the browser test',
        },
      );
      expect(unfrozen.status).toBe(200);
      expect(unexpectedProblems(problems, [{ path: '/api/v1/transfers', status: 403 }])).toEqual(
        [],
      );
    },
    journeyTimeoutMs,
  );
});
