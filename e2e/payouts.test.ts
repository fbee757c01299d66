// Withdrawals end to end against the sandbox server: a bank payout confirmed with the code
// from a real mailbox (after a wrong one, and with a double click), held until an admin
// marks it sent from the payouts queue, the customer's list turning completed live; a
// PayPal payout rejected from the customer's page with the reason shown to the customer;
// and a level-1 customer told before filling anything in that withdrawals need level 2.
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousAxeViolations } from './support/axe.ts';
import type { ConsoleProblems, viewports } from './support/browser.ts';
import { unexpectedProblems } from './support/console.ts';
import {
  callApi,
  demo,
  hasNoHorizontalScroll,
  logIn,
  snapshot,
  toast,
  userIdByEmail,
} from './support/pages.ts';
import { useServerAndBrowser } from './support/suite.ts';

const journeyTimeoutMs = 180_000;

const phoneWidthPx = 360;

const suite = useServerAndBrowser({ hasMailSink: true });

async function openPage(
  viewport: keyof typeof viewports = 'desktop',
): Promise<{ page: Page; problems: ConsoleProblems }> {
  const opened = await suite.openPage(viewport);
  // PRODUCT.md's narrowest phone, narrower than the support code's phone preset.
  if (viewport === 'phone') await opened.page.setViewportSize({ width: phoneWidthPx, height: 780 });
  return opened;
}

/** The id of a demo customer, looked up by an admin's page. */
function userIdOf(staff: Page, email: string): Promise<string> {
  return userIdByEmail(staff, suite.server.baseUrl, email);
}

async function openWithdrawTab(page: Page): Promise<void> {
  await page.goto('/transfer?tab=withdraw');
  await page.getByRole('heading', { name: 'Withdraw money' }).waitFor();
}

function availableBalance(page: Page): Locator {
  return page.getByRole('region', { name: 'Available balance' });
}

async function chooseMethod(page: Page, method: string): Promise<void> {
  await page.getByRole('combobox', { name: 'Method' }).click();
  await page.getByRole('option', { name: method, exact: true }).click();
}

/** The code of the newest step-up mail to `to` sent after `after`. */
async function emailedCode(to: string, after: Date): Promise<string> {
  const mail = await suite.mailSink.waitForMail({ to, subject: 'verification code', after });
  const code = /\b(\d{6})\b/.exec(mail.subject)?.[1] ?? '';
  expect(code).toMatch(/^\d{6}$/);
  return code;
}

function payoutsTable(page: Page): Locator {
  return page.getByRole('table', { name: 'Your withdrawals' });
}

describe('withdrawals', () => {
  it(
    'holds a bank payout confirmed by the emailed code until an admin marks it sent',
    async () => {
      const { page: adminApi } = await openPage();
      expect(
        (await callApi(adminApi, suite.server.baseUrl, 'POST', '/api/v1/auth/login', demo.admin))
          .status,
      ).toBe(200);
      const aliceId = await userIdOf(adminApi, demo.alice.email);
      const level = await callApi(
        adminApi,
        suite.server.baseUrl,
        'POST',
        `/api/v1/admin/users/${aliceId}/level`,
        {
          level: 2,
          reason: 'Identity checked for the payout browser test',
        },
      );
      expect(level.status).toBe(200);

      const { page, problems } = await openPage();
      await logIn(page, demo.alice);
      await openWithdrawTab(page);
      await availableBalance(page).getByText('$1,504.80').waitFor();
      await page.getByText('No withdrawals yet').waitFor();
      expect(await seriousAxeViolations(page, 'withdraw tab')).toEqual([]);

      // The form's own checks come before any confirmation.
      await page.getByRole('button', { name: 'Withdraw' }).click();
      await page.getByText('Enter the account holder name').waitFor();
      await page.getByLabel('Account holder name').fill('Alice Morgan');
      await page.getByLabel('Bank name').fill('Berliner Testbank');
      await page.getByLabel('Account number or IBAN').fill('DE89 3704 0044 0532 0130 01');
      await page.getByLabel('Amount').fill('2000');
      await page.getByRole('button', { name: 'Withdraw' }).click();
      await page.getByText('Enter the account number (digits) or a valid IBAN').waitFor();
      await page.getByLabel('Account number or IBAN').fill('DE89 3704 0044 0532 0130 00');
      await page.getByRole('button', { name: 'Withdraw' }).click();
      await page.getByText('Insufficient balance for withdrawal').waitFor();
      await page.getByLabel('Amount').fill('100.00');

      const askedAt = new Date();
      await page.getByRole('button', { name: 'Withdraw' }).click();
      const dialog = page.getByRole('dialog', { name: 'Confirm withdrawal' });
      await dialog.getByText('DE89370400440532013000').waitFor();
      await dialog.getByText('No fee').waitFor();
      await dialog.getByText(/We emailed a 6-digit code to a\*\*\*@coffer\.test/).waitFor();
      const code = await emailedCode(demo.alice.email, askedAt);
      expect(await seriousAxeViolations(page, 'confirm withdrawal')).toEqual([]);
      await snapshot(page, 'payout-confirm-desktop');

      const codeField = dialog.getByLabel('Verification code');
      await codeField.fill(code === '000000' ? '111111' : '000000');
      await dialog.getByRole('button', { name: 'Confirm' }).click();
      await dialog.getByText('Wrong verification code. Please try again.').waitFor();
      await codeField.fill(code);
      // A double click is one confirmation: one payout.
      await dialog.getByRole('button', { name: 'Confirm' }).dblclick();
      await toast(page, 'Withdrawal request pending approval.');
      await dialog.waitFor({ state: 'detached' });
      expect(await page.getByLabel('Amount').inputValue()).toBe('');
      await availableBalance(page).getByText('$1,404.80').waitFor();
      const pendingRow = payoutsTable(page).getByRole('row').filter({ hasText: '$100.00' });
      await pendingRow.getByText('Pending').waitFor();
      const mine = await callApi(page, suite.server.baseUrl, 'GET', '/api/v1/payouts');
      expect((mine.json as { items: unknown[] }).items).toHaveLength(1);
      const wallet = await callApi(page, suite.server.baseUrl, 'GET', '/api/v1/payouts/terms');
      expect(wallet.json).toMatchObject({ availableMinor: '140480' });
      await snapshot(page, 'payout-pending-desktop');

      // The admin works the queue in their own browser; Alice's page is not reloaded.
      const { page: admin, problems: adminProblems } = await openPage();
      await logIn(admin, demo.admin);
      const sideMenu = admin.getByRole('navigation', { name: 'Main' });
      await sideMenu
        .getByRole('link', { name: /Payouts queue/ })
        .getByLabel('1 waiting')
        .waitFor();
      await sideMenu.getByRole('link', { name: /Payouts queue/ }).click();
      await admin.getByRole('heading', { level: 1, name: 'Payouts queue' }).waitFor();
      const queueRow = admin
        .getByRole('table', { name: 'Withdrawals waiting to be sent' })
        .getByRole('row')
        .filter({ hasText: 'Alice Morgan' });
      await queueRow.getByText('DE89370400440532013000').waitFor();
      expect(await seriousAxeViolations(admin, 'payouts queue')).toEqual([]);
      await snapshot(admin, 'payouts-queue-desktop');
      await queueRow.getByRole('button', { name: /Mark the withdrawal of USD 100.00/ }).click();
      const markSent = admin.getByRole('dialog', { name: 'Mark withdrawal sent' });
      await markSent.getByRole('button', { name: 'Mark sent' }).click();
      await markSent.getByText('Enter the external reference').waitFor();
      await markSent.getByLabel('External reference').fill('SEPA-2026-0042');
      await markSent.getByRole('button', { name: 'Mark sent' }).click();
      await toast(admin, 'Marked as sent: USD 100.00 for Alice Morgan');
      await admin.getByText('Nothing waiting').waitFor();

      await pendingRow.getByText('Completed').waitFor({ timeout: 10_000 });
      await availableBalance(page).getByText('$1,404.80').waitFor();
      await snapshot(page, 'payout-completed-desktop');

      expect(unexpectedProblems(problems, [{ path: '/api/v1/payouts', status: 400 }])).toEqual([]);
      expect(unexpectedProblems(adminProblems)).toEqual([]);
    },
    journeyTimeoutMs,
  );

  it(
    'releases a rejected payout and shows the customer the reason, on a phone',
    async () => {
      const { page, problems } = await openPage('phone');
      await logIn(page, demo.alice);
      await openWithdrawTab(page);
      await availableBalance(page).getByText('$1,404.80').waitFor();
      await chooseMethod(page, 'PayPal');
      await page.getByLabel('PayPal email').fill('alice.paypal@example.com');
      await page.getByLabel('Account holder name').fill('Alice Morgan');
      await page.getByLabel('Amount').fill('50');
      expect(await hasNoHorizontalScroll(page)).toBe(true);
      await snapshot(page, 'payout-form-phone');
      const askedAt = new Date();
      await page.getByRole('button', { name: 'Withdraw' }).click();
      const dialog = page.getByRole('dialog', { name: 'Confirm withdrawal' });
      await dialog.getByText('alice.paypal@example.com').waitFor();
      await dialog
        .getByLabel('Verification code')
        .fill(await emailedCode(demo.alice.email, askedAt));
      await snapshot(page, 'payout-confirm-phone');
      await dialog.getByRole('button', { name: 'Confirm' }).click();
      await toast(page, 'Withdrawal request pending approval.');
      await availableBalance(page).getByText('$1,354.80').waitFor();

      // An admin rejects it from Alice's own page, on its Payouts tab.
      const { page: admin, problems: adminProblems } = await openPage('phone');
      await logIn(admin, demo.admin);
      const aliceId = await userIdOf(admin, demo.alice.email);
      await admin.goto(`/admin/users/${aliceId}?tab=payouts`);
      const payouts = admin.getByRole('list', { name: 'Payouts' });
      const pending = payouts.getByRole('listitem').filter({ hasText: 'alice.paypal@example.com' });
      await pending.getByRole('button', { name: /Reject the withdrawal of USD 50.00/ }).click();
      const reject = admin.getByRole('dialog', { name: 'Reject withdrawal' });
      await reject.getByLabel('Reason').fill('PayPal refused the account: use your bank instead');
      expect(await hasNoHorizontalScroll(admin)).toBe(true);
      await snapshot(admin, 'payout-reject-phone');
      await reject.getByRole('button', { name: 'Reject' }).click();
      await toast(admin, 'Rejected: USD 50.00 for Alice Morgan');
      await pending.getByText('Rejected').waitFor();
      await snapshot(admin, 'admin-customer-payouts-phone');

      const myPayouts = page.getByRole('list', { name: 'Your withdrawals' });
      const rejected = myPayouts.getByRole('listitem').filter({ hasText: '$50.00' });
      await rejected.getByText('Rejected').waitFor({ timeout: 10_000 });
      await rejected
        .getByText('Reason: PayPal refused the account: use your bank instead')
        .waitFor();
      await availableBalance(page).getByText('$1,404.80').waitFor();
      expect(await hasNoHorizontalScroll(page)).toBe(true);
      expect(await seriousAxeViolations(page, 'withdraw tab on a phone')).toEqual([]);
      await snapshot(page, 'payout-rejected-phone');

      expect(unexpectedProblems(problems)).toEqual([]);
      expect(unexpectedProblems(adminProblems)).toEqual([]);
    },
    journeyTimeoutMs,
  );

  it(
    'tells a level-1 customer that withdrawals need level 2 before they fill anything in',
    async () => {
      for (const viewport of ['desktop', 'phone'] as const) {
        const { page, problems } = await openPage(viewport);
        await logIn(page, demo.bruno);
        await openWithdrawTab(page);
        await availableBalance(page).getByText('€770.01').waitFor();
        const notice = page.getByTestId('allowance-payout');
        await notice.getByText('Withdrawals need account level 2.').waitFor();
        const link = notice.getByRole('link', { name: 'Verify your identity' });
        expect(await link.getAttribute('href')).toBe('/kyc');
        // Nothing to fill in that could only be refused.
        expect(await page.getByRole('button', { name: 'Withdraw' }).count()).toBe(0);
        expect(await page.getByLabel('Amount').count()).toBe(0);
        expect(await seriousAxeViolations(page, 'withdraw level notice')).toEqual([]);
        await snapshot(page, `payout-level-notice-${viewport}`);
        expect(unexpectedProblems(problems)).toEqual([]);
      }
    },
    journeyTimeoutMs,
  );
});
