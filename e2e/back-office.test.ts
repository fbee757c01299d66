// The back office end to end against the sandbox server: the customer list and search, a
// customer's page, deposits (posted at once and waiting for approval), the deposits queue, freezing
// with the reason the customer sees, the audit log, and what support may not do.
import { staffFreezeReason } from '@coffer/contracts/admin';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newCustomer, signUpInContext } from './support/accounts.ts';
import { seriousAxeViolations } from './support/axe.ts';
import { newContext, viewports } from './support/browser.ts';
import { unexpectedProblems } from './support/console.ts';
import {
  callApi,
  demo,
  hasNoHorizontalScroll,
  logIn,
  minorUnitsOf,
  pathOf,
  snapshot,
  snapshotBothWidths,
  toast,
} from './support/pages.ts';
import { useServerAndBrowser } from './support/suite.ts';
import { waitUntil } from './support/wait.ts';

const journeyTimeoutMs = 180_000;

const suite = useServerAndBrowser();

function errorCodeOf(json: unknown): unknown {
  return typeof json === 'object' && json !== null && 'error' in json
    ? (json.error as { code?: unknown }).code
    : undefined;
}

/** Where an element ends on the page, in CSS pixels from the left. */
async function rightEdgeOf(element: Locator): Promise<number> {
  const box = await element.boundingBox();
  if (!box) throw new Error('the element is not on screen');
  return box.x + box.width;
}

async function balanceOf(page: Page): Promise<bigint> {
  const figure = page.getByRole('region', { name: 'Account Balance' });
  return minorUnitsOf((await figure.textContent()) ?? '');
}

async function waitForBalance(page: Page, expectedMinor: bigint): Promise<void> {
  await waitUntil(
    `the balance shows ${expectedMinor} minor units`,
    async () => (await balanceOf(page)) === expectedMinor,
    10_000,
  );
}

/** Opens a customer from the list by searching for them, and returns their id. */
async function openCustomer(page: Page, search: string, username: string): Promise<string> {
  await page.goto('/admin');
  await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
  await page.getByRole('searchbox', { name: 'Search users' }).fill(search);
  const table = page.getByRole('table', { name: 'Users' });
  await waitUntil(`the list shows only ${username}`, async () => {
    const rows = await table.getByRole('row').count();
    return rows === 2 && (await table.getByText(username).count()) === 1;
  });
  await table.getByRole('link', { name: `View ${username}` }).click();
  await page.getByRole('heading', { level: 1, name: username }).waitFor();
  const match = /^\/admin\/users\/([0-9a-f-]{36})$/.exec(pathOf(page));
  expect(match, pathOf(page)).not.toBeNull();
  return match?.[1] ?? '';
}

function accountActions(page: Page): Locator {
  return page.getByRole('region', { name: 'Account Actions' });
}

async function recordDeposit(
  page: Page,
  deposit: { amount: string; reference: string; reason: string; hint: string },
): Promise<void> {
  const form = accountActions(page);
  await form.getByText('Record deposit', { exact: true }).first().click();
  await form.getByLabel('Amount').fill(deposit.amount);
  await form.getByLabel('External reference').fill(deposit.reference);
  await form.getByLabel('Reason').fill(deposit.reason);
  await form.getByText(deposit.hint).waitFor();
  await form.getByRole('button', { name: 'Record deposit' }).click();
}

describe('back office', () => {
  let aliceId = '';
  let pendingRequestId = '';

  it(
    'lets an admin find a customer, record a deposit and see it in the balance and the audit',
    async () => {
      const { page, problems } = await suite.openPage();

      // A visitor is sent to the login page and back; staff start at the customer list.
      await page.goto('/admin/audit');
      await page.getByRole('heading', { level: 1, name: 'Login' }).waitFor();
      expect(page.url()).toBe(`${suite.server.baseUrl}/signin?returnTo=%2Fadmin%2Faudit`);
      await logIn(page, demo.admin);
      expect(pathOf(page)).toBe('/admin');
      await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
      const sideMenu = page.getByRole('navigation', { name: 'Main' });
      expect(await sideMenu.getByRole('link', { name: 'Admin' }).getAttribute('aria-current')).toBe(
        'page',
      );
      await page.getByText('Total Users').waitFor();
      const table = page.getByRole('table', { name: 'Users' });
      await table.getByText(demo.alice.username).waitFor();
      await table.getByText('USD 1,504.80').waitFor();
      await snapshot(page, 'admin-users-desktop');

      // A search nobody matches says so.
      await page.getByRole('searchbox', { name: 'Search users' }).fill('no-such-person-xyz');
      await page.getByText('No users found').waitFor();

      aliceId = await openCustomer(page, 'ALICE', demo.alice.username);
      await page.getByText('+14155550102').first().waitFor();
      // Which terms she accepted, and when (the sandbox's sample, as she was seeded).
      await page.getByText(/^Version sandbox-sample-1 accepted /).waitFor();
      await page.getByRole('region', { name: 'Held' }).getByText('USD 0.00').waitFor();
      const startingMinor = await balanceOf(page);
      expect(startingMinor).toBe(150_480n);

      // A deposit at or under the approval threshold posts at once.
      await recordDeposit(page, {
        amount: '25.00',
        reference: 'BRANCH-0001',
        reason: 'Cash paid in at the branch counter',
        hint: 'Up to USD 10,000.00: this posts at once.',
      });
      await toast(page, 'Deposit recorded: USD 25.00');
      await waitForBalance(page, startingMinor + 2_500n);
      expect(await accountActions(page).getByLabel('Amount').inputValue()).toBe('');

      await page.getByRole('tab', { name: 'Transactions' }).click();
      const transactions = page.getByRole('table', { name: 'Transactions' });
      await transactions
        .getByRole('row')
        .filter({ hasText: 'Deposit (ref. BRANCH-0001)' })
        .getByText('+USD 25.00')
        .waitFor();

      await page.getByRole('tab', { name: 'Audit' }).click();
      const audit = page.getByRole('table', { name: 'Audit events' });
      const depositEvent = audit.getByRole('row').filter({ hasText: 'Deposit recorded' });
      await depositEvent.getByText('Cash paid in at the branch counter').waitFor();
      // Each detail under its name in words, the amount in its currency.
      await depositEvent.getByText('Amount: USD 25.00').waitFor();
      await depositEvent.getByText('Reference: BRANCH-0001').waitFor();
      await snapshot(page, 'admin-customer-desktop');

      // Above the threshold it waits for a second admin, and the balance stays as it was.
      await recordDeposit(page, {
        amount: '10000.01',
        reference: 'WIRE-0002',
        reason: 'Incoming wire from the customer’s employer',
        hint: 'Above USD 10,000.00: this waits for a second admin to approve it.',
      });
      await toast(page, 'Deposit submitted for approval: USD 10,000.01');
      await page.getByRole('tab', { name: /Deposits & adjustments/ }).click();
      const requests = page.getByRole('table', { name: 'Deposits and adjustments' });
      const pending = requests.getByRole('row').filter({ hasText: 'USD 10,000.01' });
      await pending.getByText('Pending approval').waitFor();
      // It names who may approve it; its maker may only cancel it.
      await pending.getByText(`May approve: ${demo.checker.username}`).waitFor();
      await pending.getByRole('button', { name: /^Cancel the deposit/ }).waitFor();
      expect(await pending.getByRole('button', { name: /Approve/ }).count()).toBe(0);
      expect(await balanceOf(page)).toBe(startingMinor + 2_500n);

      // The API refuses the maker too.
      const list = await callApi(
        page,
        suite.server.baseUrl,
        'GET',
        `/api/v1/admin/users/${aliceId}/money-requests`,
      );
      expect(list.status).toBe(200);
      const { items } = list.json as { items: { id: string; status: string }[] };
      pendingRequestId = items.find((item) => item.status === 'pending_approval')?.id ?? '';
      expect(pendingRequestId).not.toBe('');
      const ownApproval = await callApi(
        page,
        suite.server.baseUrl,
        'POST',
        `/api/v1/admin/money-requests/${pendingRequestId}/approve`,
        {},
      );
      expect(ownApproval.status).toBe(403);
      expect(errorCodeOf(ownApproval.json)).toBe('own_request');

      // A debit above the available balance is refused with the product's words.
      const form = accountActions(page);
      await form.getByText('Debit adjustment', { exact: true }).click();
      expect(await form.getByRole('radio', { name: 'Debit adjustment' }).isChecked()).toBe(true);
      await form.getByText('Available: USD 1,529.80').waitFor();
      await form.getByLabel('Amount').fill('999999');
      await form.getByLabel('Reason').fill('Reverse a mistaken deposit');
      await form.getByRole('button', { name: 'Record debit adjustment' }).click();
      await toast(page, 'Transaction failed: Insufficient funds');

      expect(
        unexpectedProblems(problems, [
          { path: `/api/v1/admin/users/${aliceId}/adjustments`, status: 409 },
        ]),
      ).toEqual([]);
    },
    journeyTimeoutMs,
  );

  it(
    'lets a second admin approve the pending deposit from the queue',
    async () => {
      expect(pendingRequestId, 'the first test leaves a pending deposit').not.toBe('');
      // The demo admin asks for a new sign-up to become an admin; the demo checker grants it.
      const admin = await suite.openPage();
      await logIn(admin.page, demo.admin);
      const newAdmin = newCustomer({ username: `New Admin ${Date.now() % 100_000}` });
      const signUpContext = await newContext(suite.browser, {
        baseUrl: suite.server.baseUrl,
        viewport: 'desktop',
      });
      suite.closeAfterTest(signUpContext);
      await signUpInContext(signUpContext, suite.server.baseUrl, newAdmin);
      const found = await callApi(
        admin.page,
        suite.server.baseUrl,
        'GET',
        `/api/v1/admin/users?search=${encodeURIComponent(newAdmin.email)}`,
      );
      const newAdminId = (found.json as { items: { id: string }[] }).items[0]?.id ?? '';
      expect(newAdminId).not.toBe('');
      const requested = await callApi(
        admin.page,
        suite.server.baseUrl,
        'POST',
        `/api/v1/admin/users/${newAdminId}/role`,
        { role: 'admin', reason: 'Second approver for the browser tests' },
      );
      expect(requested.status, JSON.stringify(requested.json)).toBe(200);
      expect(requested.json).toMatchObject({
        role: 'customer',
        pendingRoleGrant: { role: 'admin' },
      });

      const { page, problems } = await suite.openPage();
      await logIn(page, demo.checker);
      await page.goto(`/admin/users/${newAdminId}`);
      const grant = page
        .getByRole('alert')
        .filter({ hasText: 'Admin role waiting for a second admin' });
      await grant.getByText(`Requested by ${demo.admin.username}`).waitFor();
      await snapshot(page, 'admin-role-grant-desktop');
      await page.setViewportSize(viewports.phone);
      await waitUntil('the page fits the phone', () => hasNoHorizontalScroll(page));
      await snapshot(page, 'admin-role-grant-phone');
      await page.setViewportSize(viewports.desktop);
      await grant.getByRole('button', { name: 'Approve admin role' }).click();
      await toast(page, `${newAdmin.username} is now Admin.`);
      await page.getByText(staffFreezeReason).waitFor();
      expect(await grant.count()).toBe(0);

      // Promoted at the demo admin's request, the new admin may not check her requests.
      const promoted = await suite.openPage();
      await logIn(promoted.page, newAdmin);
      const refused = await callApi(
        promoted.page,
        suite.server.baseUrl,
        'POST',
        `/api/v1/admin/money-requests/${pendingRequestId}/approve`,
        {},
      );
      expect(refused.status).toBe(403);
      expect(errorCodeOf(refused.json)).toBe('not_eligible_checker');

      const sideMenu = page.getByRole('navigation', { name: 'Main' });
      await sideMenu.getByRole('link', { name: 'Deposits queue' }).click();
      await page.getByRole('heading', { level: 1, name: 'Deposits queue' }).waitFor();
      const queue = page.getByRole('table', { name: 'Requests waiting for approval' });
      const row = queue.getByRole('row').filter({ hasText: 'USD 10,000.01' });
      await row.getByRole('link', { name: demo.alice.username }).waitFor();
      await row.getByText('Demo Admin').waitFor();
      await row.getByText(`May approve: ${demo.checker.username}`).waitFor();
      await snapshot(page, 'admin-queue-desktop');

      await row
        .getByRole('button', {
          name: `Approve the deposit of USD 10,000.01 for ${demo.alice.username}`,
        })
        .click();
      const dialog = page.getByRole('dialog', { name: 'Approve request' });
      await dialog.getByText('Approving posts it to the ledger at once.').waitFor();
      await dialog.getByRole('button', { name: 'Approve' }).click();
      await toast(page, 'Approved and posted: Deposit of USD 10,000.01 for Alice Morgan');
      await page.getByText('Nothing waiting').waitFor();

      // One click from the queue leads to the customer; here, the balance includes it.
      await page.goto(`/admin/${aliceId}`);
      await page.getByRole('heading', { level: 1, name: demo.alice.username }).waitFor();
      expect(pathOf(page)).toBe(`/admin/users/${aliceId}`);
      await waitForBalance(page, 150_480n + 2_500n + 1_000_001n);
      await page.getByRole('tab', { name: /Deposits & adjustments/ }).click();
      const approved = page
        .getByRole('table', { name: 'Deposits and adjustments' })
        .getByRole('row')
        .filter({ hasText: 'USD 10,000.01' });
      await approved.getByText('Posted').waitFor();
      await approved.getByText(`by ${demo.checker.username}`).waitFor();

      // The audit log filters by action and by a person's name.
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Audit log' })
        .click();
      await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
      const audit = page.getByRole('table', { name: 'Audit events' });
      await audit.getByRole('row').filter({ hasText: 'Approved by a second admin' }).waitFor();
      await page
        .getByRole('combobox', { name: 'Action' })
        .selectOption({ label: 'Staff role changed' });
      await waitUntil('only role changes are listed', async () => {
        const rows = audit.getByRole('row');
        return (
          (await rows.count()) === 2 &&
          (await rows.nth(1).textContent())?.includes('Staff role changed') === true
        );
      });
      await snapshotBothWidths(page, 'admin-audit-action-filter');
      const roleChange = audit.getByRole('row').nth(1);
      await roleChange.getByText('Customer').waitFor();
      await roleChange.getByText('Admin', { exact: true }).waitFor();
      await roleChange.getByText('Second approver for the browser tests').waitFor();
      await page.getByRole('button', { name: 'Clear filters' }).click();
      await audit
        .getByRole('row')
        .filter({ hasText: 'Deposit recorded' })
        .getByRole('button', { name: `Show only actions by ${demo.admin.username}` })
        .click();
      await page.getByText(`By: ${demo.admin.username}`).waitFor();
      await waitUntil('only the demo admin’s actions are listed', async () => {
        const texts = await audit.getByRole('row').allTextContents();
        return (
          texts.length > 1 && texts.slice(1).every((text) => text.includes(demo.admin.username))
        );
      });
      expect(new URL(page.url()).searchParams.get('actor')).toMatch(/^[0-9a-f-]{36}$/);
      await snapshot(page, 'admin-audit-desktop');

      // Every column fits at 1,280 px, the reason and the time too, without scrolling the table.
      await page.getByRole('button', { name: 'Clear filters' }).click();
      await page.getByText(`By: ${demo.admin.username}`).waitFor({ state: 'detached' });
      expect(
        await rightEdgeOf(audit.getByRole('columnheader', { name: 'Time' })),
      ).toBeLessThanOrEqual(viewports.desktop.width);
      await snapshotBothWidths(page, 'admin-audit-unfiltered');

      // An admin's profile shows what applies to staff: no level, identity check or currency.
      await page.goto('/profile');
      const details = page.getByRole('region', { name: 'Account details' });
      await details.getByText('Role').waitFor();
      await details.getByText('Admin', { exact: true }).waitFor();
      for (const customerOnly of ['Account Level', 'Currency', 'Verify your identity']) {
        expect(await details.getByText(customerOnly).count(), customerOnly).toBe(0);
      }
      await snapshotBothWidths(page, 'admin-profile');

      expect(unexpectedProblems(problems)).toEqual([]);
      expect(unexpectedProblems(admin.problems)).toEqual([]);
      expect(
        unexpectedProblems(promoted.problems, [
          { path: `/api/v1/admin/money-requests/${pendingRequestId}/approve`, status: 403 },
        ]),
      ).toEqual([]);
    },
    journeyTimeoutMs,
  );

  it(
    'finds a customer by the phone or account number they quote, and says what a failed search looked at',
    async () => {
      const { context } = await suite.openPage();
      const caller = await signUpInContext(
        context,
        suite.server.baseUrl,
        newCustomer({ phone: '+4915123456789', country: 'DE' }),
      );
      const { page, problems } = await suite.openPage();
      await logIn(page, demo.support);
      const callerId = await openCustomer(page, caller.email, caller.username);
      const detail = await callApi(
        page,
        suite.server.baseUrl,
        'GET',
        `/api/v1/admin/users/${callerId}`,
      );
      const accountNumber = (detail.json as { wallet: { accountNumber: string } }).wallet
        .accountNumber;

      // Numbers are typed as people read them out, in groups.
      await openCustomer(page, '+49 151 2345 6789', caller.username);
      const grouped = `${accountNumber.slice(0, 5)} ${accountNumber.slice(5)}`;
      await openCustomer(page, grouped, caller.username);

      await page.goto('/admin');
      const search = page.getByRole('searchbox', { name: 'Search users' });
      await search.fill('0000');
      await page.getByText('No users found').waitFor();
      await page
        .getByText('Nobody\'s name or email contains "0000", and no card ends in 0000.')
        .waitFor();
      await snapshotBothWidths(page, 'admin-users-search-nothing');
      await search.fill(grouped);
      await page.getByRole('table', { name: 'Users' }).getByText(caller.username).waitFor();
      await snapshotBothWidths(page, 'admin-users-search-account-number');
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    journeyTimeoutMs,
  );

  it(
    'freezes a customer, who is told why on every page and in their activity, then unfreezes',
    async () => {
      const reason = 'Unusual sign-in from a new country';
      const { page, problems } = await suite.openPage();
      await logIn(page, demo.admin);
      await page.getByRole('searchbox', { name: 'Search users' }).fill('yuki');
      const table = page.getByRole('table', { name: 'Users' });
      await waitUntil(
        'the list shows only Yuki',
        async () => (await table.getByRole('row').count()) === 2,
      );
      await table.getByRole('button', { name: `More actions for ${demo.yuki.username}` }).click();
      await page.getByRole('menuitem', { name: 'Freeze' }).click();
      const dialog = page.getByRole('dialog', { name: `Freeze ${demo.yuki.username}` });
      await dialog.getByRole('button', { name: 'Freeze' }).click();
      await dialog.getByText('Please give a reason').waitFor();
      await dialog.getByLabel('Reason').fill(reason);
      await dialog.getByRole('button', { name: 'Freeze' }).click();
      await toast(page, 'Transactions disabled');
      await dialog.waitFor({ state: 'hidden' });
      await table
        .getByRole('row')
        .filter({ hasText: demo.yuki.username })
        .getByText('Frozen')
        .waitFor();
      // Focus goes back to the menu's button, so keyboard users keep their place.
      await waitUntil('focus returns to the row menu', () =>
        table
          .getByRole('button', { name: `More actions for ${demo.yuki.username}` })
          .evaluate((element) => element === document.activeElement),
      );

      const customer = await suite.openPage();
      await logIn(customer.page, demo.yuki);
      expect(pathOf(customer.page)).toBe('/dashboard');
      const banner = customer.page.getByRole('alert', { name: 'Transactions disabled' });
      await banner
        .getByText(
          `Transactions are disabled on your account: ${reason}. Contact support to have them re-enabled.`,
        )
        .waitFor();
      await customer.page.goto('/profile');
      await banner.waitFor();
      const activity = customer.page.getByRole('region', { name: 'Activity on your account' });
      const frozen = activity.getByRole('listitem').filter({ hasText: 'Transactions disabled' });
      await frozen.getByText('By staff').waitFor();
      await frozen.getByText(`Reason: ${reason}`).waitFor();
      await snapshot(customer.page, 'customer-frozen-profile-desktop');
      // The customer cannot open the back office: it is a 404 for them.
      await customer.page.goto('/admin');
      await customer.page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();

      const yukiId = await openCustomer(page, 'yuki', demo.yuki.username);
      await page.getByText(`Reason: ${reason}`).waitFor();
      await page.getByRole('button', { name: 'Unfreeze' }).click();
      const unfreeze = page.getByRole('dialog', { name: `Unfreeze ${demo.yuki.username}` });
      await unfreeze.getByLabel('Reason').fill('Confirmed with the customer by phone');
      await unfreeze.getByRole('button', { name: 'Unfreeze' }).click();
      await toast(page, 'Transactions enabled');
      await page
        .getByRole('heading', { level: 1, name: demo.yuki.username })
        .locator('..')
        .getByText('Active')
        .waitFor();
      expect(yukiId).not.toBe('');

      await customer.page.goto('/profile');
      await activity
        .getByRole('listitem')
        .filter({ hasText: 'Transactions enabled' })
        .getByText('Reason: Confirmed with the customer by phone')
        .waitFor();
      expect(await banner.count()).toBe(0);

      expect(unexpectedProblems(problems)).toEqual([]);
      expect(unexpectedProblems(customer.problems)).toEqual([]);
    },
    journeyTimeoutMs,
  );

  it(
    'shows support the customers but none of the admin-only controls',
    async () => {
      const { page, problems } = await suite.openPage();
      await logIn(page, demo.support);
      expect(pathOf(page)).toBe('/admin');
      const table = page.getByRole('table', { name: 'Users' });
      await table.getByText(demo.bruno.username).waitFor();
      await table.getByRole('link', { name: `View ${demo.bruno.username}` }).waitFor();
      expect(await table.getByRole('button', { name: /More actions/ }).count()).toBe(0);

      const brunoId = await openCustomer(page, 'bruno', demo.bruno.username);
      await page.getByRole('region', { name: 'Account Balance' }).getByText('EUR 770.01').waitFor();
      for (const control of ['Freeze', 'Unfreeze', 'Set Level', 'Change role']) {
        expect(await page.getByRole('button', { name: control }).count(), control).toBe(0);
      }

      // Support may prepare a deposit; it always waits for an admin.
      await recordDeposit(page, {
        amount: '5.50',
        reference: 'CASH-0003',
        reason: 'Cash handed in at the desk',
        hint: 'An admin must approve this before it posts.',
      });
      await toast(page, 'Deposit submitted for approval: EUR 5.50');
      await page.getByRole('tab', { name: /Deposits & adjustments/ }).click();
      const pending = page
        .getByRole('table', { name: 'Deposits and adjustments' })
        .getByRole('row')
        .filter({ hasText: 'EUR 5.50' });
      await pending.getByText(/^May approve: .*Demo Admin/).waitFor();
      expect(await page.getByRole('button', { name: /Approve|Reject/ }).count()).toBe(0);

      // Its maker may cancel a request, from the queue; it then shows as cancelled on
      // Bruno's page. (The EUR 5.50 stays pending for the accessibility check's dialog.)
      await recordDeposit(page, {
        amount: '4.50',
        reference: 'CASH-0004',
        reason: 'Counted twice by mistake',
        hint: 'An admin must approve this before it posts.',
      });
      await toast(page, 'Deposit submitted for approval: EUR 4.50');
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Deposits queue' })
        .click();
      const queue = page.getByRole('table', { name: 'Requests waiting for approval' });
      const queued = queue.getByRole('row').filter({ hasText: 'EUR 4.50' });
      expect(await queue.getByRole('button', { name: /Approve|Reject/ }).count()).toBe(0);
      // On a phone the table becomes a list of cards, with the same Cancel.
      await page.setViewportSize(viewports.phone);
      await page.getByRole('list', { name: 'Requests waiting for approval' }).waitFor();
      await waitUntil('the page fits the phone', () => hasNoHorizontalScroll(page));
      await snapshot(page, 'admin-queue-maker-phone');
      await page.setViewportSize(viewports.desktop);
      await queued
        .getByRole('button', { name: `Cancel the deposit of EUR 4.50 for ${demo.bruno.username}` })
        .click();
      const dialog = page.getByRole('dialog', { name: 'Cancel your request' });
      await dialog.getByLabel('Note (optional)').fill('Counted twice');
      await dialog.getByRole('button', { name: 'Cancel request' }).click();
      await toast(page, `Cancelled: Deposit of EUR 4.50 for ${demo.bruno.username}`);
      await waitUntil('the queue no longer lists it', async () => (await queued.count()) === 0);
      await page.goto(`/admin/users/${brunoId}`);
      await page.getByRole('tab', { name: /Deposits & adjustments/ }).click();
      const cancelled = page
        .getByRole('table', { name: 'Deposits and adjustments' })
        .getByRole('row')
        .filter({ hasText: 'EUR 4.50' });
      await cancelled.getByText('Cancelled').waitFor();
      await cancelled.getByText(`by ${demo.support.username}: Counted twice`).waitFor();
      await snapshot(page, 'admin-cancelled-desktop');

      // The server refuses support whatever the page shows.
      const freeze = await callApi(
        page,
        suite.server.baseUrl,
        'POST',
        `/api/v1/admin/users/${brunoId}/freeze`,
        {
          reason: 'Support must not be able to do this',
        },
      );
      expect(freeze.status).toBe(403);
      expect(errorCodeOf(freeze.json)).toBe('forbidden');

      // Queues that do not exist are 404s, as are unknown users.
      await page.goto('/admin/queues/mortgages');
      await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
      await page.goto('/admin/users/00000000-0000-7000-8000-000000000000');
      await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();

      expect(
        unexpectedProblems(problems, [
          { path: '/api/v1/admin/users/00000000-0000-7000-8000-000000000000', status: 404 },
        ]),
      ).toEqual([]);
    },
    journeyTimeoutMs,
  );

  it(
    'has no serious or critical axe violations on the back-office pages and dialogs',
    async () => {
      const { page, problems } = await suite.openPage();
      await logIn(page, demo.admin);
      const violations: string[] = [];

      await page.getByRole('table', { name: 'Users' }).waitFor();
      violations.push(...(await seriousAxeViolations(page, '/admin')));
      await page.getByRole('button', { name: `More actions for ${demo.bruno.username}` }).click();
      await page.getByRole('menuitem', { name: 'Set Level' }).click();
      const levelDialog = page.getByRole('dialog', { name: `Set level of ${demo.bruno.username}` });
      await levelDialog.getByLabel('Account level').waitFor();
      violations.push(...(await seriousAxeViolations(page, 'set level dialog')));
      await levelDialog.getByRole('button', { name: 'Cancel' }).click();
      await levelDialog.waitFor({ state: 'hidden' });

      await page.goto(`/admin/users/${aliceId}`);
      await page.getByRole('table', { name: 'Transactions' }).waitFor();
      violations.push(...(await seriousAxeViolations(page, 'customer, transactions')));
      await page.getByRole('tab', { name: /Deposits & adjustments/ }).click();
      await page.getByRole('table', { name: 'Deposits and adjustments' }).waitFor();
      violations.push(...(await seriousAxeViolations(page, 'customer, deposits')));
      await page.getByRole('tab', { name: 'Audit' }).click();
      await page.getByRole('table', { name: 'Audit events' }).waitFor();
      violations.push(...(await seriousAxeViolations(page, 'customer, audit')));
      await page.getByRole('button', { name: 'Freeze' }).click();
      const freezeDialog = page.getByRole('dialog', { name: `Freeze ${demo.alice.username}` });
      await freezeDialog.getByLabel('Reason').waitFor();
      violations.push(...(await seriousAxeViolations(page, 'freeze dialog')));
      await page.keyboard.press('Escape');
      await freezeDialog.waitFor({ state: 'hidden' });

      await page.goto('/admin/queues/deposits');
      await page.getByRole('table', { name: 'Requests waiting for approval' }).waitFor();
      violations.push(...(await seriousAxeViolations(page, '/admin/queues/deposits')));
      await page
        .getByRole('button', { name: /^Reject the deposit/ })
        .first()
        .click();
      const rejectDialog = page.getByRole('dialog', { name: 'Reject request' });
      await rejectDialog.getByRole('button', { name: 'Reject' }).click();
      await rejectDialog.getByText('Please give a reason').waitFor();
      violations.push(...(await seriousAxeViolations(page, 'reject dialog')));
      await rejectDialog.getByRole('button', { name: 'Cancel' }).click();

      await page.goto('/admin/audit');
      await page.getByRole('table', { name: 'Audit events' }).waitFor();
      violations.push(...(await seriousAxeViolations(page, '/admin/audit')));

      expect(violations).toEqual([]);
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    journeyTimeoutMs,
  );

  it(
    'fits the back office on a phone',
    async () => {
      const { page, problems } = await suite.openPage('phone');
      await logIn(page, demo.admin);
      for (const [width, suffix] of [
        [viewports.phone.width, 'phone'],
        [360, '360'],
      ] as const) {
        await page.setViewportSize({ width, height: viewports.phone.height });
        for (const [path, heading, name, content] of [
          ['/admin', 'Users', 'admin-users', page.getByRole('list', { name: 'Users' })],
          [
            `/admin/users/${aliceId}`,
            demo.alice.username,
            'admin-customer',
            page.getByRole('list', { name: 'Transactions' }),
          ],
          [
            '/admin/queues/deposits',
            'Deposits queue',
            'admin-queue',
            page.getByRole('list', { name: 'Requests waiting for approval' }),
          ],
          [
            '/admin/audit',
            'Audit log',
            'admin-audit',
            page.getByRole('list', { name: 'Audit events' }),
          ],
        ] as const) {
          await page.goto(path);
          await page.getByRole('heading', { level: 1, name: heading }).waitFor();
          // On a phone the tables become lists of cards.
          await content.waitFor();
          expect(
            await hasNoHorizontalScroll(page),
            `sideways scrolling on ${path} at ${width}px`,
          ).toBe(true);
          if (suffix === 'phone') await snapshot(page, `${name}-phone`);
        }
      }
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    journeyTimeoutMs,
  );
});
