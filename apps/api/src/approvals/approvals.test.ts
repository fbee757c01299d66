// Approval by a second admin as an attacker tried to walk around it (issue #11.2), and the
// ways a request finishes (#12.4). Each test names the walk-around it refuses.
import { staffFreezeReason } from '@coffer/contracts/admin';
import { toCurrencyCode } from '@coffer/contracts/currencies';
import { toDecimalString } from '@coffer/contracts/money';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildTestApp, useTestApp } from '../../test/app.ts';
import {
  newIdempotencyKey,
  signedUpClient,
  staffClient,
  strongPassword,
  TestClient,
} from '../../test/http.ts';
import type { Database } from '../db/client.ts';

let db: Database;
let app: FastifyInstance;
let admin: Awaited<ReturnType<typeof staffClient>>;
let secondAdmin: Awaited<ReturnType<typeof staffClient>>;
let support: Awaited<ReturnType<typeof staffClient>>;

useTestApp(
  async (opened) => {
    ({ app, db } = opened);
    admin = await staffClient(app, 'admin');
    secondAdmin = await staffClient(app, 'admin');
    support = await staffClient(app, 'support');
  },
  { checksAfterEach: 'ledger' },
);

function deposit(client: TestClient, userId: string, amount: string) {
  return client.post(
    `/api/v1/admin/users/${userId}/deposits`,
    { amount, reason: 'Incoming wire' },
    { 'idempotency-key': newIdempotencyKey() },
  );
}

const decide = (client: TestClient, requestId: string, decision: string, body: object = {}) =>
  client.post(`/api/v1/admin/money-requests/${requestId}/${decision}`, body);

async function signIn(email: string): Promise<TestClient> {
  const client = new TestClient(app);
  const login = await client.post('/api/v1/auth/login', { email, password: strongPassword });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  return client;
}

async function detailOf(userId: string) {
  return (await secondAdmin.client.get(`/api/v1/admin/users/${userId}`)).json();
}

/** Requests the admin role for a fresh sign-up and has `approver` grant it. */
async function promotedAdmin(requester: TestClient, approver: TestClient) {
  const { user } = await signedUpClient(app);
  const requested = await requester.post(`/api/v1/admin/users/${user.id}/role`, {
    role: 'admin',
    reason: 'New hire',
  });
  expect(requested.statusCode).toBe(200);
  const approved = await approver.post(`/api/v1/admin/users/${user.id}/role-grant/approve`, {});
  expect(approved.json().role).toBe('admin');
  return { user, client: await signIn(user.email) };
}

describe('granting the admin role', () => {
  it('waits for a second admin: the requester cannot approve her own grant', async () => {
    const { user } = await signedUpClient(app);
    const requested = await admin.client.post(`/api/v1/admin/users/${user.id}/role`, {
      role: 'admin',
      reason: 'Night shift',
    });
    expect(requested.json()).toMatchObject({
      role: 'customer',
      pendingRoleGrant: {
        role: 'admin',
        reason: 'Night shift',
        requestedBy: { id: admin.user.id },
      },
    });
    const again = await admin.client.post(`/api/v1/admin/users/${user.id}/role`, {
      role: 'admin',
      reason: 'Twice',
    });
    expect(again.statusCode).toBe(409);
    const own = await admin.client.post(`/api/v1/admin/users/${user.id}/role-grant/approve`, {});
    expect(own.statusCode).toBe(403);
    expect(own.json().error.code).toBe('own_request');
    const bySupport = await support.client.post(
      `/api/v1/admin/users/${user.id}/role-grant/approve`,
      {},
    );
    expect(bySupport.statusCode).toBe(403);
    expect((await detailOf(user.id)).role).toBe('customer');

    const rejected = await secondAdmin.client.post(
      `/api/v1/admin/users/${user.id}/role-grant/reject`,
      { reason: 'Not agreed' },
    );
    expect(rejected.json()).toMatchObject({ role: 'customer', pendingRoleGrant: null });
    const decidedTwice = await secondAdmin.client.post(
      `/api/v1/admin/users/${user.id}/role-grant/approve`,
      {},
    );
    expect(decidedTwice.statusCode).toBe(409);
    const audit = (await admin.client.get(`/api/v1/admin/audit?subjectUserId=${user.id}`)).json()
      .items;
    expect(audit.map((event: { action: string }) => event.action).slice(0, 2)).toEqual([
      'admin_role_rejected',
      'admin_role_requested',
    ]);
  });

  it('refuses the promoted admin as checker of her promoter’s requests (the 250,000.00 deposit)', async () => {
    const promoted = await promotedAdmin(admin.client, secondAdmin.client);
    const { user: customer } = await signedUpClient(app);
    const pending = (await deposit(admin.client, customer.id, '250000.00')).json();
    expect(pending.status).toBe('pending_approval');
    const names = pending.eligibleCheckers.map((checker: { id: string }) => checker.id);
    expect(names).toContain(secondAdmin.user.id);
    expect(names).not.toContain(admin.user.id);
    expect(names).not.toContain(promoted.user.id);

    const refused = await decide(promoted.client, pending.id, 'approve');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('not_eligible_checker');
    // The approver of the promotion counts as a promoter too.
    const bySecond = (await deposit(secondAdmin.client, customer.id, '250000.00')).json();
    expect((await decide(promoted.client, bySecond.id, 'approve')).statusCode).toBe(403);
    expect((await detailOf(customer.id)).wallet.balanceMinor).toBe('0');
    const approved = await decide(secondAdmin.client, pending.id, 'approve');
    expect(approved.json().status).toBe('posted');
  });
});

describe('making a helper support', () => {
  it('refuses the admin who made the maker support as checker of the maker’s requests', async () => {
    // One admin, two puppets: one made support to prepare, the other to receive.
    const { user: puppet } = await signedUpClient(app);
    const madeSupport = await admin.client.post(`/api/v1/admin/users/${puppet.id}/role`, {
      role: 'support',
      reason: 'Helper',
    });
    expect(madeSupport.json().role).toBe('support');
    const puppetClient = await signIn(puppet.email);
    const { user: receiver } = await signedUpClient(app);
    const pending = (await deposit(puppetClient, receiver.id, '900000.00')).json();
    expect(pending.status).toBe('pending_approval');
    const names = pending.eligibleCheckers.map((checker: { id: string }) => checker.id);
    expect(names).not.toContain(admin.user.id);
    expect(names).toContain(secondAdmin.user.id);

    const refused = await decide(admin.client, pending.id, 'approve');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('not_eligible_checker');
    expect((await detailOf(receiver.id)).wallet.balanceMinor).toBe('0');
    // An admin who had no hand in the maker's promotion is a second pair of eyes.
    expect((await decide(secondAdmin.client, pending.id, 'approve')).json().status).toBe('posted');
  });
});

describe('staff wallets', () => {
  it('freezes a customer who becomes staff, refuses requests for them, and unfreezes after', async () => {
    const { user, body } = await signedUpClient(app);
    await deposit(admin.client, user.id, '20.00');
    const granted = await admin.client.post(`/api/v1/admin/users/${user.id}/role`, {
      role: 'support',
      reason: 'New hire',
    });
    expect(granted.json()).toMatchObject({
      role: 'support',
      isFrozen: true,
      frozenReason: staffFreezeReason,
    });
    // The new staff member posts to her own wallet; an admin posts to it; both refused.
    const staffMember = await signIn(body.email);
    for (const maker of [staffMember, admin.client]) {
      const refused = await deposit(maker, user.id, '5.00');
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.message).toBe('Staff accounts cannot move money.');
    }
    expect((await detailOf(user.id)).wallet.balanceMinor).toBe('2000');

    const demoted = await admin.client.post(`/api/v1/admin/users/${user.id}/role`, {
      role: 'customer',
      reason: 'Left the team',
    });
    expect(demoted.json()).toMatchObject({ isFrozen: false, frozenReason: null });
    const audit = (
      await admin.client.get(`/api/v1/admin/audit?subjectUserId=${user.id}&action=account_frozen`)
    ).json().items;
    expect(audit[0]).toMatchObject({ reason: staffFreezeReason, actor: { id: admin.user.id } });
  });

  it('keeps a freeze made for another reason when staff become customers again', async () => {
    const { user } = await signedUpClient(app);
    await admin.client.post(`/api/v1/admin/users/${user.id}/freeze`, { reason: 'Fraud review' });
    await admin.client.post(`/api/v1/admin/users/${user.id}/role`, {
      role: 'support',
      reason: 'x',
    });
    const demoted = await admin.client.post(`/api/v1/admin/users/${user.id}/role`, {
      role: 'customer',
      reason: 'y',
    });
    expect(demoted.json()).toMatchObject({ isFrozen: true, frozenReason: 'Fraud review' });
  });

  it('refuses support’s deposit into an admin’s wallet, and an approval once the subject is staff', async () => {
    const promoted = await promotedAdmin(secondAdmin.client, admin.client);
    const intoAdmin = await deposit(support.client, promoted.user.id, '5.00');
    expect(intoAdmin.statusCode).toBe(403);
    expect(intoAdmin.json().error.code).toBe('staff_wallet');

    // Prepared while the subject was a customer, who is then made an admin.
    const { user } = await signedUpClient(app);
    const pending = (await deposit(support.client, user.id, '5.00')).json();
    await admin.client.post(`/api/v1/admin/users/${user.id}/role`, { role: 'admin', reason: 'x' });
    await secondAdmin.client.post(`/api/v1/admin/users/${user.id}/role-grant/approve`, {});
    const subject = await signIn((await detailOf(user.id)).email);
    const bySubject = await decide(subject, pending.id, 'approve');
    expect(bySubject.json().error.code).toBe('not_eligible_checker');
    const byOther = await decide(admin.client, pending.id, 'approve');
    expect(byOther.json().error.code).toBe('staff_wallet');
    expect((await detailOf(user.id)).wallet.balanceMinor).toBe('0');
  });
});

describe('the daily total per maker', () => {
  for (const country of ['US', 'JP', 'KW'] as const) {
    it(`sends postings over the threshold's daily total to a second admin (${country})`, async () => {
      const maker = await staffClient(app, 'admin');
      const { user } = await signedUpClient(app, { country });
      const currency = toCurrencyCode((await detailOf(user.id)).wallet.currency);
      const limits = app.config.limits.limitsFor(currency);
      if (!limits) throw new Error(`no limits for ${currency}`);
      const threshold = toDecimalString(limits.fourEyesThresholdMinor, currency);
      let postedMinor = 0n;
      while (postedMinor + limits.fourEyesThresholdMinor <= limits.fourEyesDailyTotalMinor) {
        expect((await deposit(maker.client, user.id, threshold)).json().status).toBe('posted');
        postedMinor += limits.fourEyesThresholdMinor;
      }
      const rest = limits.fourEyesDailyTotalMinor - postedMinor;
      if (rest > 0n) {
        const last = await deposit(maker.client, user.id, toDecimalString(rest, currency));
        expect(last.json().status).toBe('posted');
      }
      const smallest = toDecimalString(1n, currency);
      const over = (await deposit(maker.client, user.id, smallest)).json();
      expect(over.status).toBe('pending_approval');
      expect((await detailOf(user.id)).wallet.balanceMinor).toBe(
        limits.fourEyesDailyTotalMinor.toString(),
      );
      // Another admin's total is her own.
      expect((await deposit(admin.client, user.id, smallest)).json().status).toBe('posted');
    });
  }
});

describe('the figures the back office shows', () => {
  it('are the operator’s for the customer’s currency, and none where it has no limits', async () => {
    const configured = await buildTestApp(db, {
      COFFER_LIMITS: '{"JPY":{"fourEyesThreshold":"200000","fourEyesDailyTotal":"600000"}}',
    });
    try {
      const operatorAdmin = await staffClient(configured, 'admin');
      const figuresOf = async (country: string) => {
        const { user } = await signedUpClient(configured, { country });
        const detail = await operatorAdmin.client.get(`/api/v1/admin/users/${user.id}`);
        const { currency, fourEyesThresholdMinor, fourEyesDailyTotalMinor } = detail.json().wallet;
        return { currency, fourEyesThresholdMinor, fourEyesDailyTotalMinor };
      };
      expect(await figuresOf('JP')).toEqual({
        currency: 'JPY',
        fourEyesThresholdMinor: '200000',
        fourEyesDailyTotalMinor: '600000',
      });
      expect(await figuresOf('US')).toEqual({
        currency: 'USD',
        fourEyesThresholdMinor: '1000000',
        fourEyesDailyTotalMinor: '2500000',
      });
      // Afghanistan's afghani has no default: every posting in it waits.
      expect(await figuresOf('AF')).toEqual({
        currency: 'AFN',
        fourEyesThresholdMinor: null,
        fourEyesDailyTotalMinor: null,
      });
    } finally {
      await configured.close();
    }
  });
});

describe('cancelling a pending request', () => {
  it('lets only the maker cancel, only while pending, audited and visible in the queue', async () => {
    const { user } = await signedUpClient(app);
    const pending = (await deposit(support.client, user.id, '5.00')).json();
    expect(pending.eligibleCheckers.map((checker: { id: string }) => checker.id)).toEqual(
      expect.arrayContaining([admin.user.id, secondAdmin.user.id]),
    );
    const byAdmin = await decide(admin.client, pending.id, 'cancel');
    expect(byAdmin.statusCode).toBe(403);
    expect(byAdmin.json().error.code).toBe('not_maker');
    const cancelled = await decide(support.client, pending.id, 'cancel', { reason: 'Typo' });
    expect(cancelled.json()).toMatchObject({
      status: 'cancelled',
      decisionReason: 'Typo',
      eligibleCheckers: [],
    });
    for (const [client, decision] of [
      [support.client, 'cancel'],
      [admin.client, 'approve'],
    ] as const) {
      const late = await decide(client, pending.id, decision);
      expect(late.statusCode).toBe(409);
      expect(late.json().error.message).toBe('This request has already been decided.');
    }
    const queue = (await admin.client.get('/api/v1/admin/queues/deposits')).json().items;
    expect(queue.map((item: { id: string }) => item.id)).not.toContain(pending.id);
    const ofCustomer = (
      await admin.client.get(`/api/v1/admin/users/${user.id}/money-requests`)
    ).json().items;
    expect(ofCustomer[0]).toMatchObject({ id: pending.id, status: 'cancelled' });
    const audit = (await admin.client.get(`/api/v1/admin/audit?subjectUserId=${user.id}`)).json()
      .items;
    expect(audit[0]).toMatchObject({
      action: 'money_request_cancelled',
      actor: { id: support.user.id },
      reason: 'Typo',
    });
    expect((await detailOf(user.id)).wallet.balanceMinor).toBe('0');
  });
});
