// "Close my account" through the real routes (ADR 050): each refusal with its way forward,
// the closure itself and what it ends, and the reopening by a second admin.
import { toCurrencyCode } from '@coffer/contracts/currencies';
import { defaultLoanTermsJson } from '@coffer/contracts/loans';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { bulkCsv, bulkPaymentWhenDone, uploadBulkFile } from '../../../test/bulk-payments.ts';
import { requestCard } from '../../../test/cards.ts';
import { createCustomer, type TestCustomer } from '../../../test/customers.ts';
import { moneyRequest } from '../../../test/deposits.ts';
import { deposit } from '../../../test/factories.ts';
import {
  fourEyesStaff,
  lastEmailTo,
  newIdempotencyKey,
  staffClient,
  strongPassword,
  TestClient,
} from '../../../test/http.ts';
import { disbursedLoan } from '../../../test/loans.ts';
import { registerPasskey, SoftwareAuthenticator } from '../../../test/passkeys.ts';
import {
  bankDestination,
  lastStepUpCode,
  payoutChallenge,
  requestPayout,
} from '../../../test/payouts.ts';
import { savePayee } from '../../../test/scheduled-payments.ts';
import { quickPay } from '../../../test/transfers.ts';
import type { Database } from '../../db/client.ts';
import { removeExpiredPersonalData } from './retention.ts';

const publicUrl = 'http://bank.localhost:3000';

let app: FastifyInstance;
let db: Database;
useTestApp(
  (opened) => {
    ({ app, db } = opened);
  },
  {
    checksAfterEach: 'ledger',
    env: { COFFER_LOAN_TERMS: defaultLoanTermsJson, COFFER_PUBLIC_URL: publicUrl },
  },
);

function closureOf(customer: TestCustomer) {
  return customer.client.get('/api/v1/account-closure');
}

function close(customer: TestCustomer, currentPassword = strongPassword) {
  return customer.client.post('/api/v1/account-closure', { currentPassword });
}

function errorCodeOf(response: LightMyRequestResponse): string {
  return response.json().error.code;
}

async function blockerKinds(customer: TestCustomer): Promise<string[]> {
  const answer = await closureOf(customer);
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json().blockers.map((blocker: { kind: string }) => blocker.kind);
}

/** The customer's audit actions among `actions`, oldest first. */
async function auditedActions(userId: string, actions: string[]): Promise<string[]> {
  const found = await db.query<{ action: string }>(
    `SELECT action FROM audit_events WHERE subject_user_id = $1 AND action = ANY($2::text[])
      ORDER BY created_at, id`,
    [userId, actions],
  );
  return found.rows.map((row) => row.action);
}

async function isClosed(userId: string): Promise<boolean> {
  const found = await db.query<{ is_closed: boolean }>(
    `SELECT u.closed_at IS NOT NULL AND b.is_closed AS is_closed
       FROM users u JOIN accounts a ON a.owner_user_id = u.id AND a.kind = 'customer'
       JOIN account_balances b ON b.account_id = a.id AND b.bucket = 0
      WHERE u.id = $1`,
    [userId],
  );
  return found.rows[0]?.is_closed ?? false;
}

/** Refused with `kind` among the reasons; the account stays open. */
async function expectRefused(customer: TestCustomer, kind: string) {
  expect(await blockerKinds(customer)).toContain(kind);
  const refused = await close(customer);
  expect(refused.statusCode, refused.body).toBe(409);
  expect(errorCodeOf(refused)).toBe('account_not_closable');
  expect(await isClosed(customer.user.id)).toBe(false);
}

function signIn(customer: TestCustomer) {
  return new TestClient(app).post('/api/v1/auth/login', {
    email: customer.body.email,
    password: strongPassword,
  });
}

describe('what keeps an account open', () => {
  it('a balance: refused with the amount and the withdrawal offered to a saved payee', async () => {
    const customer = await createCustomer(app, { balance: '12.34' });
    const payeeId = await savePayee(app, customer.user.id, 'My bank', {
      kind: 'payout',
      destination: bankDestination,
    });
    const answer = (await closureOf(customer)).json();
    expect(answer).toMatchObject({
      isClosable: false,
      balance: { amountMinor: '1234', currency: 'USD' },
      withdrawalPayees: [{ id: payeeId, nickname: 'My bank' }],
    });
    expect(answer.blockers).toEqual([
      expect.objectContaining({
        kind: 'balance_positive',
        link: '/transfer?tab=withdraw',
        message: expect.stringContaining('$12.34'),
      }),
    ]);
    await expectRefused(customer, 'balance_positive');
  });

  it('a loan outstanding', async () => {
    const { admin } = await fourEyesStaff(app);
    const customer = await createCustomer(app, { level: 2 });
    await admin.request('PUT', `/api/v1/admin/users/${customer.user.id}/loan-eligibility`, {
      amount: '20000.00',
      reason: 'Salary slips checked',
    });
    await disbursedLoan(admin, customer, { amount: '100.00', months: 3 });
    // Even with the loan's money sent away, the loan itself keeps the account open.
    const kinds = await blockerKinds(customer);
    expect(kinds).toContain('loan_outstanding');
    await expectRefused(customer, 'loan_outstanding');
  });

  it('a card requested or active', async () => {
    const customer = await createCustomer(app, { balance: '100.00', level: 2 });
    const requested = await requestCard(customer);
    expect(requested.statusCode, requested.body).toBe(201);
    await expectRefused(customer, 'card_active');
    // The way forward is the customer's own: cancelling the request.
    const cancelled = await customer.client.post(`/api/v1/cards/${requested.json().id}/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await blockerKinds(customer)).toEqual(['balance_positive']);
  });

  it('a withdrawal waiting to be sent', async () => {
    const customer = await createCustomer(app, { balance: '10.00', level: 2 });
    await payoutChallenge(customer, '10.00');
    const stepUpCode = await lastStepUpCode(app, customer.body.email);
    const payout = await requestPayout(customer.client, {
      ...bankDestination,
      amount: '10.00',
      stepUpCode,
    });
    expect(payout.statusCode, payout.body).toBe(201);
    const kinds = await blockerKinds(customer);
    // The money is held for the withdrawal, not available: only the withdrawal is named.
    expect(kinds).toEqual(['payout_pending']);
    await expectRefused(customer, 'payout_pending');
  });

  it('a dispute open', async () => {
    const customer = await createCustomer(app);
    const filed = await customer.client.post('/api/v1/disputes', {
      kind: 'general',
      amount: '30.00',
      recipientAccountNumber: '1234567890',
      problemType: 'other',
      description: 'Never arrived',
    });
    expect(filed.statusCode, filed.body).toBe(201);
    await expectRefused(customer, 'dispute_open');
  });

  it('a deposit waiting for a second admin', async () => {
    const support = (await staffClient(app, 'support')).client;
    const customer = await createCustomer(app);
    const requested = await moneyRequest(support, customer.user.id, 'deposits', {
      amount: '50.00',
      reason: 'Cash at the branch',
    });
    expect(requested.statusCode, requested.body).toBe(201);
    await expectRefused(customer, 'money_request_pending');
  });

  it("another currency's wallet with money: refused with the exchange; closing closes every wallet", async () => {
    const customer = await createCustomer(app);
    const yen = await app.ledger.openWallet(customer.user.id, toCurrencyCode('JPY'), db, false);
    await deposit(app.ledger, yen.id, 500n, toCurrencyCode('JPY'));
    const answer = (await closureOf(customer)).json();
    expect(answer.otherBalances).toEqual([{ amountMinor: '500', currency: 'JPY' }]);
    expect(answer.blockers).toEqual([
      expect.objectContaining({ kind: 'balance_positive', link: '/exchange' }),
    ]);
    await expectRefused(customer, 'balance_positive');

    // Emptied (here by the ledger directly, as an exchange would), the account closes whole.
    const settlement = await app.ledger.systemAccount('settlement', toCurrencyCode('JPY'));
    await app.ledger.post({
      kind: 'deposit',
      memo: 'test: the yen leave',
      lines: [
        { accountId: yen.id, amountMinor: -500n },
        { accountId: settlement, amountMinor: 500n },
      ],
    });
    expect((await close(customer)).statusCode).toBe(200);
    const closedWallets = await db.query<{ is_closed: boolean }>(
      `SELECT b.is_closed FROM accounts a JOIN account_balances b ON b.account_id = a.id
        WHERE a.owner_user_id = $1 AND a.kind = 'customer'`,
      [customer.user.id],
    );
    expect(closedWallets.rows).toEqual([{ is_closed: true }, { is_closed: true }]);
  });

  it('the wrong password closes nothing', async () => {
    const customer = await createCustomer(app);
    const wrong = await close(customer, 'not-the-password');
    expect(errorCodeOf(wrong)).toBe('wrong_password');
    expect(await isClosed(customer.user.id)).toBe(false);
  });
});

describe('closing', () => {
  it('ends every session, refuses sign-in, cancels schedules, stops emails and audits it', async () => {
    const customer = await createCustomer(app);
    const friend = await createCustomer(app);
    const otherBrowser = await signIn(customer);
    expect(otherBrowser.statusCode).toBe(200);
    const payeeId = await savePayee(app, customer.user.id, 'Friend', {
      kind: 'coffer',
      recipient: friend.wallet.number,
    });
    const scheduled = await customer.client.post('/api/v1/scheduled-payments', {
      payeeId,
      amount: '5.00',
      frequency: 'monthly',
      startDate: '2036-01-01',
      dayOfMonth: 1,
      endType: 'never',
    });
    expect(scheduled.statusCode, scheduled.body).toBe(201);
    expect((await closureOf(customer)).json()).toMatchObject({
      isClosable: true,
      blockers: [],
      scheduledPaymentsToCancel: 1,
    });

    const closed = await close(customer);
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json()).toMatchObject({ cancelledScheduledPayments: 1 });
    expect(closed.headers['set-cookie']).toBeDefined();
    expect(await isClosed(customer.user.id)).toBe(true);

    // Every session ends, this one included.
    expect((await customer.client.get('/api/v1/auth/me')).statusCode).toBe(401);
    const live = await db.query(
      'SELECT 1 FROM sessions WHERE user_id = $1 AND revoked_at IS NULL',
      [customer.user.id],
    );
    expect(live.rows).toEqual([]);
    const signInAgain = await signIn(customer);
    expect(signInAgain.statusCode).toBe(403);
    expect(errorCodeOf(signInAgain)).toBe('account_closed');
    expect(signInAgain.json().error.message).toContain('This account is closed');
    // A wrong password is told nothing about the account.
    const wrong = await new TestClient(app).post('/api/v1/auth/login', {
      email: customer.body.email,
      password: 'not-the-password',
    });
    expect(errorCodeOf(wrong)).toBe('invalid_credentials');

    const schedule = await db.query<{ status: string }>(
      'SELECT status FROM scheduled_payments WHERE user_id = $1',
      [customer.user.id],
    );
    expect(schedule.rows).toEqual([{ status: 'cancelled' }]);

    // The confirmation is the last email: a reset link asked for afterwards is not queued.
    const confirmation = await lastEmailTo(db, customer.body.email);
    expect(confirmation.subject).toMatch(/account is closed$/);
    await new TestClient(app).post('/api/v1/auth/forgot-password', { email: customer.body.email });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await lastEmailTo(db, customer.body.email)).subject).toBe(confirmation.subject);

    const audited = await db.query(
      "SELECT 1 FROM audit_events WHERE subject_user_id = $1 AND action = 'account_closed'",
      [customer.user.id],
    );
    expect(audited.rows).toHaveLength(1);
  });

  it('a closed account cannot be paid: Quick Pay answers as for no such customer', async () => {
    const customer = await createCustomer(app);
    const sender = await createCustomer(app, { balance: '20.00', level: 2 });
    expect((await close(customer)).statusCode).toBe(200);
    for (const recipient of [customer.wallet.number, customer.body.email]) {
      const preview = await sender.client.post('/api/v1/transfers/recipient-preview', {
        recipient,
      });
      expect(errorCodeOf(preview)).toBe('recipient_refused');
      const paid = await quickPay(sender.client, { recipient, amount: '1.00' });
      expect(paid.statusCode).toBe(404);
      expect(errorCodeOf(paid)).toBe('recipient_refused');
    }
    expect((await app.ledger.balance(customer.wallet.id)).balanceMinor).toBe(0n);
  });

  it("a bulk payment file's line to an account closed after the upload is refused, the rest paid", async () => {
    const payer = await createCustomer(app, { balance: '100.00', level: 3 });
    const closing = await createCustomer(app);
    const other = await createCustomer(app);
    const uploaded = await uploadBulkFile(
      payer,
      bulkCsv([`${closing.wallet.number},4.00,Rent`, `${other.wallet.number},6.00,Rent`]),
    );
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const bulkPaymentId: string = uploaded.json().id;
    expect((await close(closing)).statusCode).toBe(200);

    await payer.client.post('/api/v1/step-up/challenges', {
      purpose: 'bulk_payment',
      bulkPaymentId,
    });
    const stepUpCode = await lastStepUpCode(app, payer.body.email);
    const confirmed = await payer.client.post(
      `/api/v1/bulk-payments/${bulkPaymentId}/confirm`,
      { stepUpCode },
      { 'idempotency-key': newIdempotencyKey() },
    );
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(await bulkPaymentWhenDone(payer, bulkPaymentId)).toMatchObject({
      paidCount: 1,
      refusedCount: 1,
      paidMinor: '600',
    });
    const refused = await db.query<{ refusal_reason: string }>(
      "SELECT refusal_reason FROM bulk_payment_lines WHERE bulk_payment_id = $1 AND status = 'refused'",
      [bulkPaymentId],
    );
    expect(refused.rows).toEqual([{ refusal_reason: 'The recipient can no longer be paid.' }]);
    expect((await app.ledger.balance(closing.wallet.id)).balanceMinor).toBe(0n);
    expect((await app.ledger.balance(other.wallet.id)).balanceMinor).toBe(600n);
  });

  it('the ledger refuses a line on a closed wallet, whoever posts it', async () => {
    const customer = await createCustomer(app);
    expect((await close(customer)).statusCode).toBe(200);
    const admin = (await staffClient(app, 'admin')).client;
    const deposit = await moneyRequest(admin, customer.user.id, 'deposits', {
      amount: '5.00',
      reason: 'Cash at the branch',
    });
    expect(deposit.statusCode).toBe(403);
    expect(errorCodeOf(deposit)).toBe('account_closed');
    expect((await app.ledger.balance(customer.wallet.id)).balanceMinor).toBe(0n);
  });
});

describe('reopening', () => {
  it('needs an admin and a second admin; then sign-in and payments work again', async () => {
    const { admin, secondAdmin, support } = await fourEyesStaff(app);
    const customer = await createCustomer(app);
    const sender = await createCustomer(app, { balance: '20.00', level: 2 });
    expect((await close(customer)).statusCode).toBe(200);

    const list = await admin.get(`/api/v1/admin/users?search=${customer.wallet.number}`);
    expect(list.json().items[0]).toMatchObject({
      id: customer.user.id,
      closedAt: expect.any(String),
    });

    const bySupport = await support.post(`/api/v1/admin/users/${customer.user.id}/reopenings`, {
      reason: 'Asked by phone',
    });
    expect(bySupport.statusCode).toBe(403);
    const withoutReason = await admin.post(`/api/v1/admin/users/${customer.user.id}/reopenings`, {
      reason: '',
    });
    expect(withoutReason.statusCode).toBe(400);
    const requested = await admin.post(`/api/v1/admin/users/${customer.user.id}/reopenings`, {
      reason: 'Customer asked by letter',
    });
    expect(requested.statusCode, requested.body).toBe(201);
    const reopeningId: string = requested.json().pendingReopening.id;
    expect((await signIn(customer)).statusCode).toBe(403);

    const own = await admin.post(`/api/v1/admin/account-reopenings/${reopeningId}/approve`, {
      reason: 'Looks right',
    });
    expect(errorCodeOf(own)).toBe('own_request');
    const approved = await secondAdmin.post(
      `/api/v1/admin/account-reopenings/${reopeningId}/approve`,
      { reason: 'Letter checked' },
    );
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ closedAt: null, pendingReopening: null });
    const again = await secondAdmin.post(
      `/api/v1/admin/account-reopenings/${reopeningId}/approve`,
      { reason: 'Twice' },
    );
    expect(errorCodeOf(again)).toBe('already_decided');

    expect((await signIn(customer)).statusCode).toBe(200);
    const paid = await quickPay(sender.client, {
      recipient: customer.wallet.number,
      amount: '1.00',
    });
    expect(paid.statusCode, paid.body).toBe(201);
    expect(
      await auditedActions(customer.user.id, ['account_reopen_requested', 'account_reopened']),
    ).toEqual(['account_reopen_requested', 'account_reopened']);
  });

  it('a rejected request leaves the account closed', async () => {
    const { admin, secondAdmin } = await fourEyesStaff(app);
    const customer = await createCustomer(app);
    expect((await close(customer)).statusCode).toBe(200);
    const requested = await admin.post(`/api/v1/admin/users/${customer.user.id}/reopenings`, {
      reason: 'Customer asked by letter',
    });
    const reopeningId: string = requested.json().pendingReopening.id;
    const rejected = await secondAdmin.post(
      `/api/v1/admin/account-reopenings/${reopeningId}/reject`,
      { reason: 'Signature does not match' },
    );
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json().closedAt).not.toBeNull();
    expect(await isClosed(customer.user.id)).toBe(true);
  });

  it('only the admin who asked may withdraw a request; then another may be made', async () => {
    const { admin, secondAdmin } = await fourEyesStaff(app);
    const customer = await createCustomer(app);
    expect((await close(customer)).statusCode).toBe(200);
    const ask = () =>
      admin.post(`/api/v1/admin/users/${customer.user.id}/reopenings`, {
        reason: 'Customer asked by phone',
      });
    const reopeningId: string = (await ask()).json().pendingReopening.id;
    expect(errorCodeOf(await ask())).toBe('state_conflict');
    const cancelUrl = `/api/v1/admin/account-reopenings/${reopeningId}/cancel`;
    const byOther = await secondAdmin.post(cancelUrl, { reason: 'Not mine' });
    expect(errorCodeOf(byOther)).toBe('not_maker');
    const withdrawn = await admin.post(cancelUrl, { reason: 'Asked the wrong customer' });
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect(withdrawn.json()).toMatchObject({ pendingReopening: null });
    expect(await isClosed(customer.user.id)).toBe(true);
    expect((await ask()).statusCode).toBe(201);
    expect(await auditedActions(customer.user.id, ['account_reopen_cancelled'])).toEqual([
      'account_reopen_cancelled',
    ]);
  });

  it('an open account cannot be "reopened"', async () => {
    const { admin } = await fourEyesStaff(app);
    const customer = await createCustomer(app);
    const refused = await admin.post(`/api/v1/admin/users/${customer.user.id}/reopenings`, {
      reason: 'By mistake',
    });
    expect(errorCodeOf(refused)).toBe('state_conflict');
  });
});

describe('signing in with a passkey', () => {
  it('is refused once the account is closed, with the same clear answer', async () => {
    const customer = await createCustomer(app);
    const authenticator = new SoftwareAuthenticator(publicUrl);
    const registered = await registerPasskey(customer, authenticator);
    expect(registered.statusCode, registered.body).toBe(201);
    expect((await close(customer)).statusCode).toBe(200);

    const browser = new TestClient(app);
    const options = (await browser.post('/api/v1/auth/passkey/options')).json().options;
    const signedIn = await browser.post('/api/v1/auth/passkey/sign-in', {
      response: authenticator.getResponse(options),
    });
    expect(signedIn.statusCode).toBe(403);
    expect(errorCodeOf(signedIn)).toBe('account_closed');
    expect((await browser.get('/api/v1/auth/me')).statusCode).toBe(401);
  });
});

describe('the retention job', () => {
  const yearMs = 365.25 * 24 * 60 * 60 * 1000;
  const retention = () => ({ db, retentionYears: app.config.retentionYears });

  it('removes personal data once the period is over, and keeps the ledger and the audit log', async () => {
    const customer = await createCustomer(app, { balance: '3.00' });
    const friend = await createCustomer(app);
    await savePayee(app, customer.user.id, 'Friend', {
      kind: 'coffer',
      recipient: friend.wallet.number,
    });
    expect(
      (await quickPay(customer.client, { recipient: friend.wallet.number, amount: '3.00' }))
        .statusCode,
    ).toBe(201);
    expect((await close(customer)).statusCode).toBe(200);
    const closedAt = new Date();
    const linesBefore = await db.query('SELECT id FROM journal_lines WHERE account_id = $1', [
      customer.wallet.id,
    ]);
    expect(linesBefore.rows.length).toBeGreaterThan(0);

    expect(app.config.retentionYears).toBe(10);
    const early = new Date(closedAt.getTime() + 9.9 * yearMs);
    expect(await removeExpiredPersonalData(retention(), early)).toBe(0);
    const late = new Date(closedAt.getTime() + 10.1 * yearMs);
    // Customers closed earlier in this file are due too.
    expect(await removeExpiredPersonalData(retention(), late)).toBeGreaterThanOrEqual(1);
    expect(await removeExpiredPersonalData(retention(), late)).toBe(0);

    const user = await db.query<{ username: string; email: string; phone: string | null }>(
      'SELECT username, email, phone FROM users WHERE id = $1',
      [customer.user.id],
    );
    expect(user.rows[0]).toEqual({
      username: 'Closed customer',
      email: `removed-${customer.user.id}@closed.invalid`,
      phone: null,
    });
    const left = await db.query<{ payees: number; sessions: number; emails: number }>(
      `SELECT (SELECT count(*)::int FROM payees WHERE user_id = $1) AS payees,
              (SELECT count(*)::int FROM sessions WHERE user_id = $1) AS sessions,
              (SELECT count(*)::int FROM outbox_emails WHERE to_address = $2) AS emails`,
      [customer.user.id, customer.body.email],
    );
    expect(left.rows[0]).toEqual({ payees: 0, sessions: 0, emails: 0 });
    const linesAfter = await db.query('SELECT id FROM journal_lines WHERE account_id = $1', [
      customer.wallet.id,
    ]);
    expect(linesAfter.rows).toEqual(linesBefore.rows);
    expect(
      await auditedActions(customer.user.id, ['account_closed', 'personal_data_removed']),
    ).toEqual(['account_closed', 'personal_data_removed']);

    // Nothing left to give back: the account cannot be reopened.
    const { admin } = await fourEyesStaff(app);
    const refused = await admin.post(`/api/v1/admin/users/${customer.user.id}/reopenings`, {
      reason: 'Customer came back',
    });
    expect(errorCodeOf(refused)).toBe('state_conflict');
  });

  it('leaves open accounts alone', async () => {
    const customer = await createCustomer(app);
    const farFuture = new Date(Date.now() + 50 * yearMs);
    await removeExpiredPersonalData(retention(), farFuture);
    const user = await db.query<{ email: string }>('SELECT email FROM users WHERE id = $1', [
      customer.user.id,
    ]);
    expect(user.rows[0]?.email).toBe(customer.body.email.toLowerCase());
  });
});
