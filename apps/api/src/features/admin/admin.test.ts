import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { moneyRequest } from '../../../test/deposits.ts';
import { signedUpClient, staffClient, TestClient } from '../../../test/http.ts';
import type { Database } from '../../db/client.ts';

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

async function balanceOf(userId: string): Promise<string> {
  return (await admin.client.get(`/api/v1/admin/users/${userId}`)).json().wallet.balanceMinor;
}

describe('customer list', () => {
  it('counts users and searches names and addresses case-insensitively, a page at a time', async () => {
    const marker = `Zebra${Date.now()}`;
    for (let index = 0; index < 3; index += 1) {
      await signedUpClient(app, {
        username: `${marker} ${index}`,
        country: index === 2 ? 'JP' : 'US',
      });
    }
    const list = await admin.client.get(
      `/api/v1/admin/users?search=${marker.toUpperCase()}&limit=2`,
    );
    expect(list.statusCode).toBe(200);
    const page = list.json();
    expect(page.totalUsers).toBeGreaterThanOrEqual(6);
    expect(page.items.map((item: { username: string }) => item.username)).toEqual([
      `${marker} 2`,
      `${marker} 1`,
    ]);
    expect(page.items[0]).toMatchObject({
      balance: { amountMinor: '0', currency: 'JPY' },
      level: 1,
      isFrozen: false,
    });
    const next = (
      await admin.client.get(
        `/api/v1/admin/users?search=${marker}&limit=2&cursor=${page.nextCursor}`,
      )
    ).json();
    expect(next.items.map((item: { username: string }) => item.username)).toEqual([`${marker} 0`]);
    expect(next.nextCursor).toBeNull();
    const byEmail = (
      await support.client.get(`/api/v1/admin/users?search=${encodeURIComponent('@EXAMPLE.com')}`)
    ).json();
    expect(byEmail.items.length).toBeGreaterThan(0);
  });

  it('treats % and _ in a search as plain characters', async () => {
    const list = (await admin.client.get('/api/v1/admin/users?search=%25')).json();
    expect(list.items).toEqual([]);
  });
});

describe('freeze and levels', () => {
  it('freezes with a reason the customer can see, and unfreezes', async () => {
    const { client, user } = await signedUpClient(app);
    const missingReason = await admin.client.post(`/api/v1/admin/users/${user.id}/freeze`, {
      reason: '',
    });
    expect(missingReason.statusCode).toBe(400);
    const frozen = await admin.client.post(`/api/v1/admin/users/${user.id}/freeze`, {
      reason: 'Suspicious sign-ins',
    });
    expect(frozen.json()).toMatchObject({ isFrozen: true, frozenReason: 'Suspicious sign-ins' });
    expect((await client.get('/api/v1/auth/me')).json().frozenReason).toBe('Suspicious sign-ins');
    const again = await admin.client.post(`/api/v1/admin/users/${user.id}/freeze`, {
      reason: 'again',
    });
    expect(again.statusCode).toBe(409);
    const unfrozen = await admin.client.post(`/api/v1/admin/users/${user.id}/unfreeze`, {
      reason: 'Owner confirmed',
    });
    expect(unfrozen.json()).toMatchObject({ isFrozen: false, frozenReason: null });
    const activity = (await client.get('/api/v1/profile/activity')).json().items;
    expect(activity.slice(0, 2)).toEqual([
      expect.objectContaining({
        action: 'account_unfrozen',
        reason: 'Owner confirmed',
        isByStaff: true,
      }),
      expect.objectContaining({
        action: 'account_frozen',
        reason: 'Suspicious sign-ins',
        isByStaff: true,
      }),
    ]);
  });

  it('sets a level from 1 to 9 with a reason, and explains a bad level', async () => {
    const { user } = await signedUpClient(app);
    const set = await admin.client.post(`/api/v1/admin/users/${user.id}/level`, {
      level: 3,
      reason: 'KYC checked by phone',
    });
    expect(set.json().level).toBe(3);
    for (const level of [0, 10, 2.5]) {
      const bad = await admin.client.post(`/api/v1/admin/users/${user.id}/level`, {
        level,
        reason: 'x',
      });
      expect(bad.json().error.message).toBe('Please enter a valid account level');
    }
  });

  it('lets support read but not freeze or set levels', async () => {
    const { user } = await signedUpClient(app);
    expect((await support.client.get(`/api/v1/admin/users/${user.id}`)).statusCode).toBe(200);
    expect(
      (await support.client.post(`/api/v1/admin/users/${user.id}/freeze`, { reason: 'x' }))
        .statusCode,
    ).toBe(403);
    expect(
      (await support.client.post(`/api/v1/admin/users/${user.id}/level`, { level: 2, reason: 'x' }))
        .statusCode,
    ).toBe(403);
  });
});

describe('staff roles', () => {
  it('grants and revokes roles, ending the person’s sessions, but never on oneself', async () => {
    const { client, user } = await signedUpClient(app);
    const granted = await admin.client.post(`/api/v1/admin/users/${user.id}/role`, {
      role: 'support',
      reason: 'New hire',
    });
    expect(granted.json().role).toBe('support');
    expect((await client.get('/api/v1/auth/me')).statusCode).toBe(401);
    const self = await admin.client.post(`/api/v1/admin/users/${admin.user.id}/role`, {
      role: 'customer',
      reason: 'x',
    });
    expect(self.statusCode).toBe(403);
    expect(self.json().error.code).toBe('own_account');
    const audit = (
      await admin.client.get(`/api/v1/admin/audit?action=role_changed&subjectUserId=${user.id}`)
    ).json();
    expect(audit.items[0]).toMatchObject({
      action: 'role_changed',
      actor: { id: admin.user.id },
      before: { role: 'customer' },
      after: { role: 'support' },
      reason: 'New hire',
    });
  });
});

describe('deposits and adjustments', () => {
  it('posts a deposit under the threshold at once, from settlement, with an audit entry', async () => {
    const { client, user } = await signedUpClient(app);
    const deposit = await moneyRequest(admin.client, user.id, 'deposits', {
      amount: '250.75',
      externalReference: 'WIRE-001',
      reason: 'Incoming wire',
    });
    expect(deposit.statusCode).toBe(201);
    expect(deposit.json()).toMatchObject({
      status: 'posted',
      amountMinor: '25075',
      currency: 'USD',
      checker: null,
    });
    expect(await balanceOf(user.id)).toBe('25075');
    const activity = (await client.get('/api/v1/profile/activity')).json().items;
    expect(activity[0]).toMatchObject({
      action: 'deposit_recorded',
      reason: 'Incoming wire',
      isByStaff: true,
    });
  });

  it('holds a deposit above the threshold for a second admin, who is not the maker', async () => {
    const { user } = await signedUpClient(app);
    const pending = (
      await moneyRequest(admin.client, user.id, 'deposits', {
        amount: '10000.01',
        reason: 'Large wire',
      })
    ).json();
    expect(pending.status).toBe('pending_approval');
    expect(await balanceOf(user.id)).toBe('0');
    const queue = (await support.client.get('/api/v1/admin/queues/deposits')).json().items;
    expect(queue.map((item: { id: string }) => item.id)).toContain(pending.id);

    const own = await admin.client.post(`/api/v1/admin/money-requests/${pending.id}/approve`, {});
    expect(own.statusCode).toBe(403);
    expect(own.json().error.code).toBe('own_request');
    const bySupport = await support.client.post(
      `/api/v1/admin/money-requests/${pending.id}/approve`,
      {},
    );
    expect(bySupport.statusCode).toBe(403);

    const approved = await secondAdmin.client.post(
      `/api/v1/admin/money-requests/${pending.id}/approve`,
      {},
    );
    expect(approved.json()).toMatchObject({
      status: 'posted',
      checker: { id: secondAdmin.user.id },
    });
    expect(await balanceOf(user.id)).toBe('1000001');
    const twice = await secondAdmin.client.post(
      `/api/v1/admin/money-requests/${pending.id}/approve`,
      {},
    );
    expect(twice.statusCode).toBe(409);
    expect(await balanceOf(user.id)).toBe('1000001');
  });

  it('sends everything support prepares to a second admin, who may reject it with a reason', async () => {
    const { user } = await signedUpClient(app);
    const pending = (
      await moneyRequest(support.client, user.id, 'deposits', {
        amount: '5.00',
        reason: 'Branch cash',
      })
    ).json();
    expect(pending.status).toBe('pending_approval');
    const noReason = await admin.client.post(
      `/api/v1/admin/money-requests/${pending.id}/reject`,
      {},
    );
    expect(noReason.statusCode).toBe(400);
    const rejected = await admin.client.post(`/api/v1/admin/money-requests/${pending.id}/reject`, {
      reason: 'No receipt',
    });
    expect(rejected.json()).toMatchObject({ status: 'rejected', decisionReason: 'No receipt' });
    expect(await balanceOf(user.id)).toBe('0');
  });

  it('blocks a debit adjustment above the available balance with "Insufficient funds"', async () => {
    const { user } = await signedUpClient(app);
    await moneyRequest(admin.client, user.id, 'deposits', { amount: '20.00', reason: 'Deposit' });
    const tooMuch = await moneyRequest(admin.client, user.id, 'adjustments', {
      amount: '20.01',
      reason: 'Reverse',
    });
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json().error.message).toBe('Insufficient funds');
    const reversed = await moneyRequest(admin.client, user.id, 'adjustments', {
      amount: '20.00',
      reason: 'Mistaken deposit',
    });
    expect(reversed.json().status).toBe('posted');
    expect(await balanceOf(user.id)).toBe('0');
  });

  it('refuses amounts that are not positive numbers in the wallet’s minor unit', async () => {
    const { user } = await signedUpClient(app, { country: 'JP' });
    for (const amount of ['0', '-5', '1.5', 'abc']) {
      const bad = await moneyRequest(admin.client, user.id, 'deposits', { amount, reason: 'x' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.message).toBe('Please enter a valid amount');
    }
  });

  it('records a deposit once however often the same request is retried', async () => {
    const { user } = await signedUpClient(app);
    const headers = { 'idempotency-key': `retry-${Date.now()}` };
    const body = { amount: '7.00', reason: 'Cash' };
    const responses = await Promise.all(
      [1, 2, 3].map(() =>
        admin.client.post(`/api/v1/admin/users/${user.id}/deposits`, body, headers),
      ),
    );
    expect(new Set(responses.map((response) => response.json().id)).size).toBe(1);
    expect(await balanceOf(user.id)).toBe('700');
  });
});

describe('the audit log', () => {
  it('refuses to be changed, even by the database owner', async () => {
    await expect(db.query("UPDATE audit_events SET reason = 'edited'")).rejects.toThrow(
      /append-only/,
    );
    await expect(db.query('DELETE FROM audit_events')).rejects.toThrow(/append-only/);
  });

  it('records security events: sign-ins, failures and lockouts', async () => {
    const { body, user } = await signedUpClient(app);
    const client = new TestClient(app);
    for (let attempt = 0; attempt < 6; attempt += 1) {
      await client.post('/api/v1/auth/login', { email: body.email, password: 'wrong' });
    }
    const events = (await admin.client.get(`/api/v1/admin/audit?subjectUserId=${user.id}`)).json()
      .items;
    const actions = events.map((event: { action: string }) => event.action);
    expect(actions).toContain('login_failed');
    expect(actions).toContain('login_locked');
  });
});
