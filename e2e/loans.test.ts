// Loans end to end against the sandbox server, in Chromium: a level-1 customer is told how to
// reach loans; staff raise her level and set her eligibility; she sees the cost of a loan as
// she types and applies; an admin approves from the loans queue and disburses from the
// customer page; her open dashboard shows the money without a reload; she repays part, then
// pays off, and the loan shows Repaid in green. A declined application shows its reason.
// The loan in one flow (issue #31 item 2): a customer asks for an assessment from the loan
// page and writes to support; support passes the thread to an admin and sets the
// eligibility from the loans queue; the customer hears it in the bell and applies from a
// form that starts with her phone; the admin approves and disburses from the queue's "to
// disburse" list, then marks the thread resolved.

import { toCurrencyCode } from '@coffer/contracts/currencies';
import { annuitySchedule } from '@coffer/contracts/loan-schedule';
import { formatMoney } from '@coffer/contracts/money';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { viewports } from './support/browser.ts';
import { unexpectedProblems } from './support/console.ts';
import {
  balanceRegion,
  callApi,
  demo,
  openDashboard,
  shownBalanceMinor,
  snapshotBothWidths,
  toast,
} from './support/pages.ts';
import { type OpenedPage, useServerAndBrowser } from './support/suite.ts';
import { waitUntil } from './support/wait.ts';

const journeyTimeoutMs = 300_000;
const usd = toCurrencyCode('USD');
/** Alice's seeded balance: 1,250.00 + 300.00 − 45.20. */
const aliceStartingMinor = 150_480n;

const suite = useServerAndBrowser();

async function signedInPage(
  account: { email: string; password: string },
  viewport: keyof typeof viewports = 'desktop',
): Promise<OpenedPage> {
  const opened = await suite.openPage(viewport);
  const login = await opened.context.request.post('/api/v1/auth/login', {
    data: account,
    headers: { origin: suite.server.baseUrl },
  });
  expect(login.status(), await login.text()).toBe(200);
  return opened;
}

async function aliceId(admin: Page): Promise<string> {
  const found = await callApi(
    admin,
    suite.server.baseUrl,
    'GET',
    `/api/v1/admin/users?search=${encodeURIComponent(demo.alice.email)}`,
  );
  const id = (found.json as { items: { id: string }[] }).items[0]?.id ?? '';
  expect(id).not.toBe('');
  return id;
}

async function applyOnLoanPage(page: Page, amount: string, months: string): Promise<void> {
  await page.getByLabel('Full Name').fill('Alice Morgan');
  await page.getByLabel('Phone Number').fill('+1 555 0100');
  await page.getByLabel('Full Address').fill('12 Harbour Street, Portland');
  await page.getByLabel('Monthly Salary').fill('4200.00');
  await page.getByLabel('Requested Loan Amount').fill(amount);
  await page.getByLabel('Repayment Months').fill(months);
}

async function repayOnLoanPage(page: Page, fill: (dialog: Locator) => Promise<void>) {
  await page.getByRole('button', { name: 'Repay', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Repay loan' });
  await dialog.waitFor();
  await fill(dialog);
  await dialog.getByRole('button', { name: 'Repay', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}

describe('loans', () => {
  it(
    'takes a customer from eligibility and the cost disclosure to a loan disbursed, repaid and paid off',
    async () => {
      const alice = await signedInPage(demo.alice);
      const admin = await signedInPage(demo.admin);
      const checker = await signedInPage(demo.checker);
      const userId = await aliceId(admin.page);

      // Level 1: the page says how to reach loans.
      await alice.page.goto('/loan');
      await alice.page.getByRole('heading', { name: 'Loan Access Restricted' }).waitFor();
      await alice.page.getByText('Reach level 2 to access loan services').waitFor();
      await snapshotBothWidths(alice.page, 'loans-restricted');
      const level = await callApi(
        admin.page,
        suite.server.baseUrl,
        'POST',
        `/api/v1/admin/users/${userId}/level`,
        {
          level: 2,
          reason: 'KYC verified at the branch',
        },
      );
      expect(level.status, JSON.stringify(level.json)).toBe(200);

      // Staff set the eligibility on the customer page's loans tab.
      await admin.page.goto(`/admin/users/${userId}?tab=loans`);
      await admin.page.getByRole('heading', { name: 'Loan eligibility' }).waitFor();
      await admin.page.getByText('Not yet assessed').waitFor();
      const eligibility = admin.page.getByRole('region', { name: 'Loan eligibility' });
      await eligibility.getByLabel('Approved eligibility').fill('5000.00');
      // The form says which of its words reach the customer.
      const reason = eligibility.getByRole('textbox', { name: 'Reason for the customer' });
      expect(await reason.getAttribute('aria-describedby')).toBeTruthy();
      await eligibility.getByText('The customer sees this.').waitFor();
      await reason.fill('Salary slips for three months checked');
      await eligibility
        .getByLabel('Note for staff only (optional)')
        .fill('Salary 3,500 net per month stated in support chat; no debts');
      await eligibility.getByRole('button', { name: 'Set eligibility' }).click();
      await toast(admin.page, 'Loan eligibility updated');

      // The customer sees it, and the cost of the loan as she types; never the staff note.
      await alice.page.reload();
      await alice.page.getByText('$5,000.00').first().waitFor();
      await alice.page.getByText('Salary slips for three months checked').first().waitFor();
      expect(await alice.page.getByText(/support chat/).count()).toBe(0);
      await applyOnLoanPage(alice.page, '1200.00', '12');
      const cost = annuitySchedule(120_000n, 1200, 12);
      const disclosure = alice.page.getByLabel('Cost of this loan');
      await disclosure
        .getByText(formatMoney({ amountMinor: cost.instalmentMinor, currency: usd }))
        .first()
        .waitFor();
      await disclosure
        .getByText(formatMoney({ amountMinor: cost.totalInterestMinor, currency: usd }))
        .waitFor();
      await disclosure
        .getByText(formatMoney({ amountMinor: cost.totalRepayableMinor, currency: usd }))
        .waitFor();
      await disclosure.getByText('12.00 %').first().waitFor();
      await snapshotBothWidths(alice.page, 'loans-cost-disclosure');
      await alice.page.getByLabel('Requested Loan Amount').fill('6000.00');
      await disclosure.getByText('Requested amount is above your approved eligibility').waitFor();
      await alice.page.getByLabel('Requested Loan Amount').fill('1200.00');
      // The form settles (the warning gone) before it is sent.
      await disclosure
        .getByText('Requested amount is above your approved eligibility')
        .waitFor({ state: 'hidden' });
      await alice.page.getByRole('button', { name: 'Submit application' }).click();
      await toast(alice.page, 'Loan application submitted for admin review.');
      await alice.page.getByText('Application under review').waitFor();

      // An admin approves from the queue.
      await admin.page.goto('/admin/queues/loans');
      await admin.page.getByRole('heading', { level: 1, name: 'Loans queue' }).waitFor();
      const row = admin.page.getByRole('row').filter({ hasText: demo.alice.username });
      await row.getByRole('button', { name: 'Approve' }).waitFor();
      await snapshotBothWidths(admin.page, 'loans-queue');
      await row.getByRole('button', { name: 'Approve' }).click();
      const approveDialog = admin.page.getByRole('dialog', { name: 'Approve loan' });
      await approveDialog.getByRole('button', { name: 'Approve' }).click();
      await toast(admin.page, 'Loan approved');

      // Alice watches her dashboard while the loan is disbursed.
      await openDashboard(alice.page);
      await balanceRegion(alice.page).getByRole('button', { name: 'Show balance' }).click();
      await waitUntil(
        'the starting balance shows',
        async () => (await shownBalanceMinor(alice.page)) === aliceStartingMinor,
        15_000,
      );

      await admin.page.goto(`/admin/users/${userId}?tab=loans`);
      const actions = admin.page.getByRole('region', { name: 'Account Actions' });
      await actions.locator('label').filter({ hasText: 'Disburse loan' }).click();
      await actions.getByLabel('Approved loan').click();
      await admin.page.getByRole('option', { name: /USD 1,200.00 over 12 months/ }).click();
      await actions.getByLabel('Reason').fill('Approved application, paid out');
      await actions.getByRole('button', { name: 'Disburse loan' }).click();
      await toast(admin.page, 'Loan disbursed: USD 1,200.00');
      await admin.page
        .getByRole('region', { name: 'Loan Balance' })
        .getByText('USD 1,200.00')
        .waitFor();
      await snapshotBothWidths(admin.page, 'loans-admin-customer');

      await waitUntil(
        'the dashboard shows the loan without a reload',
        async () => (await shownBalanceMinor(alice.page)) === aliceStartingMinor + 120_000n,
        15_000,
      );

      // She repays part, then pays off.
      await alice.page.goto('/loan');
      await alice.page.getByRole('heading', { name: 'Your loan' }).waitFor();
      await snapshotBothWidths(alice.page, 'loans-active');
      await repayOnLoanPage(alice.page, (dialog) => dialog.getByLabel('Amount').fill('300.00'));
      await toast(alice.page, 'Repayment of $300.00 received.');
      await repayOnLoanPage(alice.page, (dialog) =>
        dialog.getByRole('button', { name: 'Pay off the loan' }).click(),
      );
      await toast(alice.page, 'Your loan is fully repaid.');
      const history = alice.page.getByRole('table', { name: 'Loan history' });
      const repaid = history.getByRole('row').filter({ hasText: '$1,200.00' }).getByText('Repaid');
      await repaid.waitFor();
      const [red = 0, green = 0, blue = 0] =
        (await repaid.evaluate((element) => getComputedStyle(element).color))
          .match(/\d+/g)
          ?.map(Number) ?? [];
      expect(green > red && green > blue, `Repaid is green (${red}, ${green}, ${blue})`).toBe(true);
      await alice.page.getByText('Loan Balance').waitFor();
      await snapshotBothWidths(alice.page, 'loans-repaid');

      // A second application is declined with a reason the customer sees.
      await applyOnLoanPage(alice.page, '500.00', '6');
      await alice.page.getByRole('button', { name: 'Submit application' }).click();
      await toast(alice.page, 'Loan application submitted for admin review.');
      await checker.page.goto(`/admin/users/${userId}?tab=loans`);
      const pending = checker.page
        .getByRole('table', { name: 'Loan requests' })
        .getByRole('row')
        .filter({ hasText: '$500.00' });
      await pending.getByRole('button', { name: 'Decline' }).click();
      const declineDialog = checker.page.getByRole('dialog', { name: 'Decline loan' });
      await declineDialog.getByLabel('Reason').fill('Two loans in one month are more than we lend');
      await declineDialog.getByRole('button', { name: 'Reject' }).click();
      await toast(checker.page, 'Loan request declined');
      await alice.page.setViewportSize({ width: 390, height: 844 });
      await alice.page.getByText('Two loans in one month are more than we lend').waitFor();
      await snapshotBothWidths(alice.page, 'loans-declined');

      for (const { problems } of [alice, admin, checker]) {
        expect(unexpectedProblems(problems)).toEqual([]);
      }
    },
    journeyTimeoutMs,
  );

  it(
    'takes a loan from the customer asking for an assessment through support to the admin paying it out',
    async () => {
      const bruno = await signedInPage(demo.bruno);
      const support = await signedInPage(demo.support);
      const admin = await signedInPage(demo.admin);
      const brunoId = (
        (
          await callApi(
            admin.page,
            suite.server.baseUrl,
            'GET',
            `/api/v1/admin/users?search=${encodeURIComponent(demo.bruno.email)}`,
          )
        ).json as { items: { id: string }[] }
      ).items[0]?.id;
      const level = await callApi(
        admin.page,
        suite.server.baseUrl,
        'POST',
        `/api/v1/admin/users/${brunoId}/level`,
        { level: 2, reason: 'Identity verified' },
      );
      expect(level.status, JSON.stringify(level.json)).toBe(200);

      // The customer asks from the loan page, and writes to support.
      await bruno.page.goto('/loan');
      await bruno.page.getByText('Not yet assessed').waitFor();
      await bruno.page.getByRole('button', { name: 'Ask for an assessment' }).click();
      await bruno.page.getByText('Assessment requested').waitFor();
      await snapshotBothWidths(bruno.page, 'loanflow-assessment-requested');
      await bruno.page.goto('/support');
      await bruno.page
        .getByRole('textbox', { name: 'Your message' })
        .fill('I asked for a loan assessment. Can someone look at it?');
      await bruno.page.getByRole('button', { name: 'Send' }).click();
      await bruno.page
        .getByTestId('support-message')
        .filter({ hasText: 'loan assessment' })
        .waitFor();

      // Support answers, passes the thread to the admin, and it stays in the inbox.
      await support.page.goto('/admin/queues/support');
      await support.page.getByRole('link', { name: demo.bruno.username }).click();
      await support.page
        .getByRole('textbox', { name: 'Reply' })
        .fill('Our lending admin will take it from here.');
      await support.page.getByRole('button', { name: 'Send' }).click();
      const handling = support.page.getByRole('region', { name: 'Thread handling' });
      await handling
        .getByLabel('Pass to a colleague')
        .selectOption({ label: `${demo.admin.username} (admin)` });
      await handling.getByRole('button', { name: 'Assign' }).click();
      await toast(support.page, 'Thread assigned');
      await handling.getByText(`Assigned to ${demo.admin.username}.`).waitFor();
      await snapshotBothWidths(support.page, 'loanflow-thread-assigned');
      await support.page.goto('/admin/queues/support');
      const threadRow = support.page.getByRole('row').filter({ hasText: demo.bruno.username });
      await threadRow.getByText(demo.admin.username).waitFor();
      await threadRow.getByText(/Answered/).waitFor();
      await snapshotBothWidths(support.page, 'loanflow-support-inbox');

      // Support sets the eligibility where the request waits: the loans queue.
      await support.page.goto('/admin/queues/loans');
      const requests = support.page.getByRole('region', { name: 'Assessment requests' });
      await requests
        .getByRole('row')
        .filter({ hasText: demo.bruno.username })
        .getByRole('button', { name: 'Set eligibility' })
        .click();
      const eligibility = support.page.getByRole('dialog', { name: 'Set loan eligibility' });
      await eligibility.getByLabel('Approved eligibility').fill('3000.00');
      await eligibility
        .getByRole('textbox', { name: 'Reason for the customer' })
        .fill('Two years of salary into this account');
      await eligibility.getByRole('button', { name: 'Set eligibility' }).click();
      await toast(support.page, 'Loan eligibility updated');
      await requests.getByText('Nobody is waiting for an assessment.').waitFor();

      // The customer hears it in the bell; the form starts from what she gave.
      await bruno.page.goto('/notifications');
      await bruno.page
        .getByText(/Your approved loan eligibility is now €3,000.00/)
        .first()
        .waitFor();
      await bruno.page.goto('/loan');
      await bruno.page.getByRole('heading', { name: 'Apply for a loan' }).waitFor();
      expect(await bruno.page.getByLabel('Phone Number').inputValue()).toBe('+4930901820');
      await snapshotBothWidths(bruno.page, 'loanflow-application-prefilled');
      await bruno.page.getByLabel('Full Name').fill('Bruno Keller');
      await bruno.page.getByLabel('Full Address').fill('Torstraße 1, Berlin');
      await bruno.page.getByLabel('Monthly Salary').fill('3500.00');
      await bruno.page.getByLabel('Requested Loan Amount').fill('1000.00');
      await bruno.page.getByLabel('Repayment Months').fill('10');
      await bruno.page.getByRole('button', { name: 'Submit application' }).click();
      await toast(bruno.page, 'Loan application submitted for admin review.');

      // The admin approves, then pays out from the queue's own "to disburse" list.
      await admin.page.goto('/admin/queues/loans');
      const applications = admin.page.getByRole('region', { name: 'Applications' });
      await applications
        .getByRole('row')
        .filter({ hasText: demo.bruno.username })
        .getByRole('button', { name: 'Approve' })
        .click();
      await admin.page
        .getByRole('dialog', { name: 'Approve loan' })
        .getByRole('button', { name: 'Approve' })
        .click();
      await toast(admin.page, 'Loan approved');
      const toDisburse = admin.page.getByRole('region', { name: 'To disburse' });
      const approvedRow = toDisburse.getByRole('row').filter({ hasText: demo.bruno.username });
      await approvedRow.getByRole('button', { name: 'Disburse' }).waitFor();
      await snapshotBothWidths(admin.page, 'loanflow-to-disburse');
      await approvedRow.getByRole('button', { name: 'Disburse' }).click();
      const disburseDialog = admin.page.getByRole('dialog', { name: 'Disburse loan' });
      await disburseDialog.getByLabel('Reason').fill('Approved application, paid out');
      await disburseDialog.getByRole('button', { name: 'Disburse loan' }).click();
      await toast(admin.page, 'Loan disbursed: EUR 1,000.00');
      await toDisburse.getByText('Every approved loan has been paid out.').waitFor();

      // The admin closes the thread: it leaves the inbox.
      await admin.page.goto(`/admin/users/${brunoId}?tab=messages`);
      await admin.page
        .getByRole('region', { name: 'Thread handling' })
        .getByRole('button', { name: 'Mark resolved' })
        .click();
      await toast(admin.page, 'Thread marked resolved');
      await admin.page.goto('/admin/queues/support');
      await admin.page.getByRole('heading', { level: 1, name: 'Support inbox' }).waitFor();
      await admin.page.getByText('Every thread is resolved.').waitFor();

      await bruno.page.goto('/loan');
      await bruno.page.getByRole('heading', { name: 'Your loan' }).waitFor();
      for (const { problems } of [bruno, support, admin]) {
        expect(unexpectedProblems(problems)).toEqual([]);
      }
    },
    journeyTimeoutMs,
  );
});
