// "Close my account" end to end (issue #34 item 4, "Prove it"): a customer with a balance is
// refused closure and told to withdraw the rest, withdraws it (an admin sends it), closes
// the account with the password, and can no longer sign in; the closure email is the last.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newCustomer, signUpInContext } from './support/accounts.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { unexpectedProblems } from './support/console.ts';
import { linkIn } from './support/mail-sink.ts';
import {
  callApi,
  demo,
  logInByApi,
  savePayeeByApi,
  setLevel,
  snapshot,
  toast,
  userIdByEmail,
} from './support/pages.ts';
import { useServerAndBrowser } from './support/suite.ts';
import { waitUntil } from './support/wait.ts';

const journeyTimeoutMs = 180_000;

const suite = useServerAndBrowser({ hasMailSink: true });

function adminCall(admin: Page, method: 'GET' | 'POST', path: string, body?: unknown) {
  return callApi(admin, suite.server.baseUrl, method, path, body, {
    idempotencyKey: `closure-e2e-${Date.now()}-${Math.random()}`,
  });
}

describe('closing an account', () => {
  it(
    'is refused while money is left, then closes after the withdrawal and ends sign-in',
    async () => {
      const customer = newCustomer();
      const { context, page, problems } = await suite.openPage();
      await signUpInContext(context, suite.server.baseUrl, customer);
      const verification = await suite.mailSink.waitForMail({
        to: customer.email,
        subject: /email/i,
      });
      await page.goto(linkIn(verification, '/verify-email').href);
      await page.getByText('is confirmed as the email address of your account').waitFor();

      // An admin makes the customer able to withdraw and gives them money to withdraw.
      const { page: admin } = await suite.openPage();
      await logInByApi(admin, suite.server.baseUrl, demo.admin);
      const userId = await userIdByEmail(admin, suite.server.baseUrl, customer.email);
      await setLevel(admin, suite.server.baseUrl, userId, {
        level: 2,
        reason: 'Identity checked for the closure browser test',
      });
      const deposited = await adminCall(admin, 'POST', `/api/v1/admin/users/${userId}/deposits`, {
        amount: '25.00',
        reason: 'Cash at the branch',
      });
      expect(deposited.status).toBe(201);

      // The customer's own bank, saved as a payee (with the emailed code, as on /payees).
      const destination = {
        method: 'bank',
        holderName: customer.username,
        bankName: 'Berliner Testbank',
        accountNumber: 'DE89 3704 0044 0532 0130 00',
      };
      const target = { kind: 'payout', destination };
      await savePayeeByApi(
        page,
        { baseUrl: suite.server.baseUrl, mailSink: suite.mailSink, email: customer.email },
        { nickname: 'My bank', target },
      );

      // From the profile to the closure page: refused, with the balance and the way forward.
      await page.goto('/profile');
      await page.getByRole('link', { name: 'Close my account' }).click();
      await page.getByRole('heading', { level: 1, name: 'Close your account' }).waitFor();
      await page.getByRole('heading', { name: 'Before you can close it' }).waitFor();
      await page.getByText('Your balance is $25.00.', { exact: false }).waitFor();
      expect(await page.getByRole('button', { name: 'Close my account' }).count()).toBe(0);
      expect(await seriousAxeViolations(page, 'closure refused')).toEqual([]);
      await snapshot(page, 'account-closure-refused-desktop');

      // Withdraw the rest to the saved payee the refusal offers: the form comes filled in.
      await page.getByRole('link', { name: 'Withdraw to My bank' }).click();
      await page.getByRole('heading', { name: 'Withdraw money' }).waitFor();
      await waitUntil(
        'the saved payee fills the form',
        async () => (await page.getByLabel('Bank name').inputValue()) === 'Berliner Testbank',
      );
      await page.getByLabel('Amount').fill('25.00');
      const askedAt = new Date();
      await page.getByRole('button', { name: 'Withdraw' }).click();
      const dialog = page.getByRole('dialog', { name: 'Confirm withdrawal' });
      const mail = await suite.mailSink.waitForMail({
        to: customer.email,
        subject: 'verification code',
        after: askedAt,
      });
      await dialog
        .getByLabel('Verification code')
        .fill(/\b(\d{6})\b/.exec(mail.subject)?.[1] ?? '');
      await dialog.getByRole('button', { name: 'Confirm' }).click();
      await toast(page, 'Withdrawal request pending approval.');

      // Still refused while the withdrawal waits; an admin sends it.
      await page.goto('/close-account');
      await page.getByText('A withdrawal is waiting to be sent.', { exact: false }).waitFor();
      const payouts = await adminCall(admin, 'GET', `/api/v1/admin/users/${userId}/payouts`);
      const payoutId = (payouts.json as { items: { id: string }[] }).items[0]?.id ?? '';
      const sent = await adminCall(admin, 'POST', `/api/v1/admin/payouts/${payoutId}/send`, {
        externalReference: 'SEPA-CLOSE-1',
      });
      expect(sent.status).toBe(200);

      await page.getByRole('button', { name: 'Check again' }).click();
      await page.getByRole('heading', { name: 'Your account can be closed' }).waitFor();
      expect(await seriousAxeViolations(page, 'closure possible')).toEqual([]);
      await page.getByLabel('Your password, to confirm').fill('not-my-password');
      await page.getByRole('button', { name: 'Close my account' }).click();
      await page.getByText('Your current password is not correct.').waitFor();
      await page.getByLabel('Your password, to confirm').fill(customer.password);
      await snapshot(page, 'account-closure-confirm-desktop');
      await page.getByRole('button', { name: 'Close my account' }).click();
      await toast(page, 'Your account is closed. You are signed out everywhere.');
      await page.getByRole('heading', { level: 1, name: 'Login' }).waitFor();

      // Signing in again is refused, and says why.
      await page.getByLabel('Email').fill(customer.email);
      await page.getByLabel('Password', { exact: true }).fill(customer.password);
      await page.getByRole('button', { name: 'Login', exact: true }).click();
      await page.getByText('This account is closed.', { exact: false }).first().waitFor();
      await page.goto('/dashboard');
      await page.getByRole('heading', { level: 1, name: 'Login' }).waitFor();
      await suite.mailSink.waitForMail({ to: customer.email, subject: /account is closed/ });

      // Staff see it closed; an admin asks to reopen it and a second admin approves.
      await admin.goto(`/admin/users/${userId}`);
      await admin.getByText('Closed', { exact: true }).first().waitFor();
      const closedCard = admin
        .getByRole('alert')
        .filter({ hasText: 'Account closed by the customer' });
      await closedCard.getByLabel('Reason').fill('The customer asked by letter to come back');
      await closedCard.getByRole('button', { name: 'Ask to reopen' }).click();
      await toast(admin, 'Reopening requested: a second admin must approve it.');
      await closedCard.getByText('Another admin must approve or reject it.').waitFor();
      expect(await seriousAxeViolations(admin, 'closed account, staff')).toEqual([]);
      await snapshot(admin, 'account-closure-staff-desktop');

      const { page: checker } = await suite.openPage();
      await logInByApi(checker, suite.server.baseUrl, demo.checker);
      await checker.goto(`/admin/users/${userId}`);
      const toDecide = checker
        .getByRole('alert')
        .filter({ hasText: 'Account closed by the customer' });
      await toDecide.getByLabel('Reason').fill('Letter and signature checked');
      await toDecide.getByRole('button', { name: 'Approve reopening' }).click();
      await toast(checker, 'The account is open again.');
      await checker.getByText('Active', { exact: true }).first().waitFor();
      const { page: again } = await suite.openPage();
      await logInByApi(again, suite.server.baseUrl, customer);

      expect(
        unexpectedProblems(problems, [
          { path: '/api/v1/payouts', status: 400 },
          // The wrong password first (wrong_password is a 403).
          { path: '/api/v1/account-closure', status: 403 },
          { path: '/api/v1/auth/login', status: 403 },
        ]),
      ).toEqual([]);
    },
    journeyTimeoutMs,
  );
});
