// Customer care end to end, two browsers side by side against the sandbox: Alice disputes a
// card purchase from its row on her dashboard (its amount filled in, the card's problems,
// no recipient) and freezes just the card; she reports a
// Quick Pay she did not make as an unauthorized transaction (and freezes her account),
// copies the reference and quotes it to support; support sees the queues' counts, answers
// in the thread (Alice's unread badge and thread update without a reload), opens the case
// from the reference and resolves it with a refund that a second admin approves (after one
// the server refuses and support corrects); Alice sees the refund, the resolved status, her
// notifications and the emails.
import type { BrowserContext, Page } from 'playwright-core';
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
  callApi,
  demo,
  hasNoHorizontalScroll,
  logIn,
  openDashboard,
  setLevel,
  snapshot,
  snapshotBothWidths,
  toast,
} from './support/pages.ts';
import { useServerAndBrowser } from './support/suite.ts';

const journeyTimeoutMs = 240_000;

const suite = useServerAndBrowser({ hasMailSink: true });

async function openPage(
  viewport: keyof typeof viewports = 'desktop',
): Promise<{ page: Page; problems: ConsoleProblems; context: BrowserContext }> {
  const context = suite.closeAfterTest(
    await newContext(suite.browser, { baseUrl: suite.server.baseUrl, viewport }),
  );
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: suite.server.baseUrl,
  });
  const page = await context.newPage();
  return { page, problems: watchConsole(page), context };
}

async function userIdOf(staff: Page, email: string): Promise<string> {
  const found = await callApi(
    staff,
    suite.server.baseUrl,
    'GET',
    `/api/v1/admin/users?search=${encodeURIComponent(email)}`,
  );
  const id = (found.json as { items: { id: string }[] }).items[0]?.id ?? '';
  expect(id).not.toBe('');
  return id;
}

function sideMenu(page: Page) {
  return page.getByRole('navigation', { name: 'Main' });
}

/** Signs `account` in on the page's browser context through the API, for calls only. */
async function apiLogIn(page: Page, account: { email: string; password: string }) {
  const { status } = await callApi(page, suite.server.baseUrl, 'POST', '/api/v1/auth/login', {
    email: account.email,
    password: account.password,
  });
  expect(status).toBe(200);
}

/**
 * Alice's card (an admin sets her level to 2 first), asked for, issued by the admin and used
 * once at `merchant`, all through the API (the cards journey clicks through the same steps):
 * a card purchase on her dashboard.
 */
async function cardPurchase(alice: Page, merchant: string, amount: string): Promise<string> {
  const { page: admin } = await openPage();
  await apiLogIn(admin, demo.admin);
  const aliceId = await userIdOf(admin, demo.alice.email);
  await setLevel(admin, suite.server.baseUrl, aliceId, {
    level: 2,
    reason: 'Identity checked for the card dispute browser test',
  });
  const requested = await callApi(
    alice,
    suite.server.baseUrl,
    'POST',
    '/api/v1/cards',
    { confirmedFeeMinor: '10000' },
    { idempotencyKey: `care-card-${Date.now()}` },
  );
  expect(requested.status, JSON.stringify(requested.json)).toBe(201);
  const cardId = (requested.json as { id: string }).id;
  const issued = await callApi(
    admin,
    suite.server.baseUrl,
    'POST',
    `/api/v1/admin/cards/${cardId}/issue`,
    {},
  );
  expect(issued.status).toBe(200);
  const bought = await callApi(
    alice,
    suite.server.baseUrl,
    'POST',
    '/api/v1/cards/simulated-purchases',
    { merchant, amount },
    { idempotencyKey: `care-purchase-${Date.now()}` },
  );
  expect(bought.status, JSON.stringify(bought.json)).toBe(200);
  return cardId;
}

describe('customer care', () => {
  it(
    'starts a dispute from a card purchase’s row: its amount, card problems, no recipient, and a card freeze',
    async () => {
      const { page: alice, problems } = await openPage();
      await logIn(alice, demo.alice);
      const cardId = await cardPurchase(alice, 'Night Market', '42.00');
      await openDashboard(alice);
      const transactions = alice.getByRole('table', { name: 'Transactions' });
      await transactions
        .getByRole('row')
        .filter({ hasText: 'Night Market' })
        .getByRole('link', { name: /^Dispute Card purchase -\$42\.00/ })
        .click();
      await alice.getByRole('heading', { level: 1, name: 'Report an issue' }).waitFor();
      expect(await alice.getByLabel('Amount').inputValue()).toBe('42.00');
      expect(await alice.getByLabel("Recipient's account number").count()).toBe(0);
      const problem = alice.getByRole('combobox', { name: "What's wrong with this purchase?" });
      expect(await problem.getByRole('option').allTextContents()).toEqual([
        'Select a problem type',
        "I didn't make this purchase",
        'I was charged twice',
        "I didn't receive the goods or service",
        'The amount is wrong',
        'Something else',
      ]);
      await problem.selectOption({ label: "I didn't make this purchase" });
      await alice.getByLabel('Description').fill('My card was in my drawer all evening.');
      await alice.getByLabel(/Freeze my card now/).check();
      expect(await seriousAxeViolations(alice, 'dispute form from a card purchase')).toEqual([]);
      await snapshotBothWidths(alice, 'care-dispute-card-form');
      await alice.getByRole('button', { name: 'Submit Dispute' }).click();
      const reference = (await alice.getByTestId('dispute-reference').textContent()) ?? '';
      expect(reference).toMatch(/^REF-[A-Z0-9]{9}$/);
      // The transaction is disputed now: the form says so instead of taking a second one.
      await alice.getByText(`You already disputed this transaction: ${reference}.`).waitFor();
      const card = await callApi(alice, suite.server.baseUrl, 'GET', '/api/v1/cards');
      expect((card.json as { card: { id: string; status: string } }).card).toMatchObject({
        id: cardId,
        status: 'frozen',
      });
      const me = await callApi(alice, suite.server.baseUrl, 'GET', '/api/v1/auth/me');
      expect((me.json as { frozenReason: string | null }).frozenReason).toBeNull();

      // The row says so too, in the table and in the phone's list.
      await sideMenu(alice).getByRole('link', { name: 'Dashboard' }).click();
      const row = transactions.getByRole('row').filter({ hasText: 'Night Market' });
      await row.getByRole('link', { name: `Disputed ${reference}` }).waitFor();
      await snapshot(alice, 'care-disputed-row-desktop');
      await alice.setViewportSize({ width: 390, height: 844 });
      await alice
        .getByRole('list', { name: 'Transactions' })
        .getByRole('listitem')
        .filter({ hasText: 'Night Market' })
        .getByRole('link', { name: `Disputed ${reference}` })
        .waitFor();
      expect(await hasNoHorizontalScroll(alice)).toBe(true);
      await snapshot(alice, 'care-disputed-row-phone');
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    journeyTimeoutMs,
  );

  it(
    'takes an unauthorized Quick Pay from dispute to support thread to refund, live on both sides',
    async () => {
      const { page: alice, problems: aliceProblems } = await openPage();
      await logIn(alice, demo.alice);
      // The Quick Pay Alice did not make, sent with her session (as a thief would) to a
      // new customer in her currency.
      const { context: thiefContext } = await openPage();
      const thief = await signUpInContext(thiefContext, suite.server.baseUrl, newCustomer());
      const paid = await alice.request.fetch('/api/v1/transfers', {
        method: 'POST',
        headers: {
          origin: suite.server.baseUrl,
          'content-type': 'application/json',
          'idempotency-key': `care-${Date.now()}`,
        },
        data: JSON.stringify({ recipient: thief.email, amount: '40.00' }),
      });
      expect(paid.status(), await paid.text()).toBe(201);

      // Alice files the dispute from her profile's link, about that Quick Pay.
      await alice.goto('/profile');
      await alice.getByRole('link', { name: 'File Dispute' }).click();
      await alice.getByRole('heading', { level: 1, name: 'Report an issue' }).waitFor();
      await alice.getByRole('button', { name: 'Submit Dispute' }).click();
      await alice.getByText('Enter the amount').waitFor();
      await alice.getByText('Describe the problem').waitFor();
      await alice.getByLabel('Amount').fill('forty');
      await alice.getByRole('button', { name: 'Submit Dispute' }).click();
      await alice.getByText('Invalid amount').waitFor();
      // The transaction picker lists her latest entries, newest first: the Quick Pay.
      // Chosen, the form asks only what fits a transfer: its amount is filled in, and the
      // ledger knows the recipient.
      const picker = alice.getByRole('combobox', { name: 'Transaction (optional)' });
      const quickPay = picker.getByRole('option', { name: /Transfer · -\$40\.00/ }).first();
      await picker.selectOption((await quickPay.getAttribute('value')) ?? '');
      await alice.waitForURL(/\/dispute\?entry=/);
      // The form starts anew from the transaction once its details arrive.
      await expect.poll(() => alice.getByLabel('Amount').inputValue()).toBe('40.00');
      expect(await alice.getByLabel("Recipient's account number").count()).toBe(0);
      await alice
        .getByRole('combobox', { name: 'Problem type' })
        .selectOption({ label: "I didn't make this payment" });
      await alice.getByLabel('Description').fill('I did not send this <b>Quick Pay</b>.');
      await alice.getByLabel(/Freeze my account now/).check();
      expect(await seriousAxeViolations(alice, 'dispute form')).toEqual([]);
      await snapshotBothWidths(alice, 'care-dispute-form');
      await alice.getByRole('button', { name: 'Submit Dispute' }).click();
      await alice
        .getByText('We have received your dispute. Quote this reference in any message to support.')
        .waitFor();
      const reference = (await alice.getByTestId('dispute-reference').textContent()) ?? '';
      expect(reference).toMatch(/^REF-[A-Z0-9]{9}$/);
      await alice.getByRole('button', { name: 'Copy Reference Number' }).click();
      await alice.getByRole('button', { name: 'Copied!' }).waitFor();
      expect(await alice.evaluate(() => navigator.clipboard.readText())).toBe(reference);
      const mine = alice.getByRole('table', { name: 'Your disputes' });
      await mine.getByRole('row').filter({ hasText: reference }).getByText('Pending').waitFor();
      // The freeze she asked for is in force, with the reason she is shown.
      await alice
        .getByText(/You froze your account when you reported/)
        .first()
        .waitFor();
      await snapshot(alice, 'care-dispute-filed-desktop');

      // She quotes the reference to support from the Help button.
      await alice.getByRole('link', { name: 'Help' }).click();
      await alice.getByRole('heading', { level: 1, name: 'Support' }).waitFor();
      const composer = alice.getByRole('textbox', { name: 'Your message' });
      await composer.fill(`Someone sent money from my account. My dispute is `);
      await composer.press('Control+V');
      expect(await composer.inputValue()).toContain(reference);
      await alice.getByRole('button', { name: 'Send' }).click();
      await alice.getByTestId('support-message').filter({ hasText: reference }).waitFor();
      expect(await seriousAxeViolations(alice, 'support thread')).toEqual([]);
      await snapshot(alice, 'care-support-customer-desktop');
      // She moves on to her dashboard; nothing below reloads her page.
      await sideMenu(alice).getByRole('link', { name: 'Dashboard' }).click();
      await alice.getByRole('region', { name: 'Available Balance' }).waitFor();

      // Support, in another browser, sees the queues' counts and answers the thread.
      const { page: staff, problems: staffProblems } = await openPage();
      await logIn(staff, demo.support);
      await staff.getByRole('link', { name: /Support queue: 1 open/ }).waitFor();
      await staff.getByRole('link', { name: /Disputes queue: [1-9]\d* open/ }).waitFor();
      await sideMenu(staff)
        .getByRole('link', { name: /Support inbox/ })
        .getByLabel('1 waiting')
        .waitFor();
      expect(await seriousAxeViolations(staff, 'staff home')).toEqual([]);
      await snapshot(staff, 'care-staff-home-desktop');
      await sideMenu(staff)
        .getByRole('link', { name: /Disputes queue/ })
        .click();
      await staff.getByRole('heading', { level: 1, name: 'Disputes queue' }).waitFor();
      await staff.getByRole('link', { name: reference }).waitFor();
      expect(await seriousAxeViolations(staff, 'disputes queue')).toEqual([]);
      await snapshot(staff, 'care-disputes-queue-desktop');
      await sideMenu(staff)
        .getByRole('link', { name: /Support inbox/ })
        .click();
      await staff.getByRole('heading', { level: 1, name: 'Support inbox' }).waitFor();
      expect(await seriousAxeViolations(staff, 'support inbox')).toEqual([]);
      await snapshot(staff, 'care-support-inbox-desktop');
      await staff.getByRole('link', { name: demo.alice.username }).click();
      const thread = staff.getByRole('log', { name: 'Messages' });
      const quoted = thread.getByTestId('support-message').filter({ hasText: reference });
      await quoted.getByRole('link', { name: reference }).waitFor();
      await staff
        .getByRole('textbox', { name: 'Reply' })
        .fill(`Thank you. We are looking into ${reference} now.`);
      await staff.getByRole('button', { name: 'Send' }).click();
      await thread.getByText(/We are looking into/).waitFor();
      expect(await seriousAxeViolations(staff, 'messages tab')).toEqual([]);
      await snapshot(staff, 'care-messages-tab-desktop');

      // Alice's unread badge appears live, and the thread shows the reply when she opens it.
      await sideMenu(alice).getByTestId('support-unread-badge').waitFor({ timeout: 10_000 });
      await alice.getByRole('button', { name: /Notifications, \d+ unread/ }).waitFor();
      await sideMenu(alice)
        .getByRole('link', { name: /Support/ })
        .click();
      await alice.getByText(/We are looking into/).waitFor();
      await sideMenu(alice).getByTestId('support-unread-badge').waitFor({ state: 'detached' });

      // Support opens the case from the reference and resolves it with a refund.
      await quoted.first().getByRole('link', { name: reference }).click();
      await staff.getByRole('heading', { level: 1, name: reference }).waitFor();
      await staff.getByText('I did not send this <b>Quick Pay</b>.').waitFor();
      const linked = staff.getByRole('region', { name: 'Linked transaction' });
      await linked.getByText('-$40.00').waitFor();
      expect(await seriousAxeViolations(staff, 'dispute case')).toEqual([]);
      await staff.getByRole('radiogroup', { name: 'Next step' }).getByText('Resolve').click();
      await staff.getByRole('button', { name: 'Resolve' }).click();
      await staff.getByText('Please write a note').waitFor();
      await staff
        .getByLabel('Note to the customer')
        .fill('We refunded the payment you did not make.');
      // A cent above what Alice disputed, the form says before submitting that it will wait.
      const refundField = staff.getByLabel('Refund (optional)');
      await staff.getByText(/A refund from support always waits for an admin's approval/).waitFor();
      await refundField.fill('40.01');
      await staff
        .getByText(
          'Above the disputed amount ($40.00): a second admin must approve this refund before it is paid.',
        )
        .waitFor();
      await refundField.fill('40.00');
      await staff.getByText(/Above the disputed amount/).waitFor({ state: 'hidden' });
      await snapshot(staff, 'care-dispute-case-desktop');
      // A refund the server refuses (a dollar amount has two decimal places) is shown on
      // the form; corrected, it is another request with a key of its own and goes through.
      await refundField.fill('40.001');
      await staff.getByRole('button', { name: 'Resolve' }).click();
      await staff.getByRole('alert').filter({ hasText: 'Please enter a valid amount' }).waitFor();
      await refundField.fill('40.00');
      await staff.getByRole('button', { name: 'Resolve' }).click();
      await toast(staff, 'Refund sent for approval; the dispute stays open until it is decided');
      await staff.getByText(/waiting for a second admin/).waitFor();
      // The case waits with its refund: nothing else is decided meanwhile.
      await staff.getByText(/The refund waits for an admin in the deposits queue/).waitFor();
      expect(await staff.getByRole('button', { name: 'Resolve' }).count()).toBe(0);
      const refundId = (
        (await callApi(staff, suite.server.baseUrl, 'GET', '/api/v1/admin/queues/deposits'))
          .json as {
          items: { id: string; externalReference: string | null }[];
        }
      ).items.find((item) => item.externalReference === reference)?.id;
      expect(refundId).toBeDefined();
      // Support cannot approve the refund it prepared; a second admin does.
      const alone = await callApi(
        staff,
        suite.server.baseUrl,
        'POST',
        `/api/v1/admin/money-requests/${refundId}/approve`,
        {},
      );
      expect(alone.status).toBe(403);
      // The sandbox's second admin, who neither prepared the refund nor is its subject.
      const approver = demo.checker;
      const { page: checker } = await openPage();
      await logIn(checker, approver);
      await checker.goto('/admin/queues/deposits');
      const row = checker.getByRole('row').filter({ hasText: 'USD 40.00' });
      await row.getByRole('button', { name: /Approve the deposit of USD 40.00/ }).click();
      await checker
        .getByRole('dialog', { name: 'Approve request' })
        .getByRole('button', { name: 'Approve' })
        .click();
      await toast(checker, 'Approved and posted');

      // Alice sees the refund, the resolved status and the notifications, without a reload.
      await alice.getByRole('link', { name: 'Dashboard' }).first().click();
      await alice.getByRole('region', { name: 'Available Balance' }).waitFor();
      await alice.getByRole('button', { name: /Notifications, \d+ unread/ }).click();
      const bell = alice.getByRole('dialog', { name: /Notifications/ });
      await bell
        .getByText(
          `Your dispute ${reference} is resolved: the refund is in your account. We refunded the payment you did not make.`,
        )
        .waitFor();
      await bell.getByText('$40.00 was deposited to your account.').waitFor();
      await bell.getByText('Support replied to your message.').waitFor();
      expect(await seriousAxeViolations(alice, 'bell')).toEqual([]);
      await snapshot(alice, 'care-bell-desktop');
      await bell.getByRole('link', { name: 'See all' }).click();
      await alice.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor();
      await alice.getByRole('button', { name: 'Mark all read' }).click();
      await alice.getByText('Nothing unread.').waitFor();
      expect(await seriousAxeViolations(alice, 'notifications page')).toEqual([]);
      await snapshot(alice, 'care-notifications-desktop');
      await alice.goto('/dispute');
      await alice
        .getByRole('table', { name: 'Your disputes' })
        .getByRole('row')
        .filter({ hasText: reference })
        .getByText('Resolved')
        .waitFor();
      await alice.getByText(/Refund \$40\.00: paid to your account/).waitFor();

      for (const subject of [
        'Support replied',
        `dispute ${reference} is resolved`,
        'was deposited',
      ]) {
        await suite.mailSink.waitForMail({ to: demo.alice.email, subject });
      }

      expect(
        unexpectedProblems(aliceProblems, [{ path: '/api/v1/disputes', status: 400 }]),
      ).toEqual([]);
      expect(
        unexpectedProblems(staffProblems, [
          { path: '/api/v1/admin/disputes/[^/]+/resolve', status: 400 },
          { path: `/api/v1/admin/money-requests/${refundId}/approve`, status: 403 },
        ]),
      ).toEqual([]);
    },
    journeyTimeoutMs,
  );

  it(
    'fits the new pages on a phone, for the customer and for staff',
    async () => {
      const { page, problems } = await openPage('phone');
      await logIn(page, demo.bruno);
      for (const [path, heading, name] of [
        ['/dispute', 'Report an issue', 'care-dispute-phone'],
        ['/support', 'Support', 'care-support-phone'],
        ['/notifications', 'Notifications', 'care-notifications-phone'],
      ] as const) {
        await page.goto(path);
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        await page.waitForLoadState('networkidle');
        expect(await hasNoHorizontalScroll(page), path).toBe(true);
        expect(await seriousAxeViolations(page, `${path} on a phone`)).toEqual([]);
        await snapshot(page, name);
      }
      const { page: staff, problems: staffProblems } = await openPage('phone');
      await logIn(staff, demo.support);
      const aliceId = await userIdOf(staff, demo.alice.email);
      for (const [path, name] of [
        ['/admin', 'care-staff-home-phone'],
        ['/admin/queues/disputes', 'care-disputes-queue-phone'],
        ['/admin/queues/support', 'care-support-inbox-phone'],
        [`/admin/users/${aliceId}?tab=disputes`, 'care-disputes-tab-phone'],
        [`/admin/users/${aliceId}?tab=messages`, 'care-messages-tab-phone'],
      ] as const) {
        await staff.goto(path);
        await staff.getByRole('heading', { level: 1 }).first().waitFor();
        await staff.waitForLoadState('networkidle');
        expect(await hasNoHorizontalScroll(staff), path).toBe(true);
        expect(await seriousAxeViolations(staff, `${path} on a phone`)).toEqual([]);
        await snapshot(staff, name);
      }
      expect(unexpectedProblems(problems)).toEqual([]);
      expect(unexpectedProblems(staffProblems)).toEqual([]);
    },
    journeyTimeoutMs,
  );
});
