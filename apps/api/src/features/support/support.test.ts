import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/app.ts';
import { createCustomer } from '../../../test/customers.ts';
import { openTestDatabase } from '../../../test/database.ts';
import { staffClient, type TestClient } from '../../../test/http.ts';
import { startSmtpSink } from '../../../test/smtp-sink.ts';
import type { Database } from '../../db/client.ts';

let db: Database;
let app: FastifyInstance;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;

beforeAll(async () => {
  db = await openTestDatabase();
  sink = await startSmtpSink();
  app = await buildTestApp(db, { SMTP_URL: sink.url });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await sink.stop();
  await db.close();
});

describe('support messages', () => {
  it('puts a customer’s message in the staff inbox until staff reply, then counts the reply unread', async () => {
    const customer = await createCustomer(app);
    const support = await staffClient(app, 'support');
    const sent = await customer.client.post('/api/v1/support/messages', {
      body: 'Where is my refund? See REF-ABCDEFGH1',
    });
    expect(sent.statusCode).toBe(201);
    expect(sent.json()).toMatchObject({
      isFromStaff: false,
      body: 'Where is my refund? See REF-ABCDEFGH1',
    });
    const inbox = (await support.client.get('/api/v1/admin/queues/support')).json();
    expect(inbox.items.map((item: { userId: string }) => item.userId)).toContain(customer.user.id);

    const reply = await support.client.post(`/api/v1/admin/users/${customer.user.id}/support`, {
      body: 'We are on it.',
    });
    expect(reply.statusCode).toBe(201);
    // Answered is not resolved: the thread stays in the inbox, no longer waiting.
    const after = (await support.client.get('/api/v1/admin/queues/support')).json();
    expect(
      after.items.find((item: { userId: string }) => item.userId === customer.user.id),
    ).toMatchObject({ awaitingStaffSince: null });
    expect((await customer.client.get('/api/v1/support/unread')).json()).toEqual({
      unreadCount: 1,
    });
    const thread = (await customer.client.get('/api/v1/support/thread')).json();
    expect(thread.messages.map((message: { body: string }) => message.body)).toEqual([
      'Where is my refund? See REF-ABCDEFGH1',
      'We are on it.',
    ]);
    expect((await customer.client.post('/api/v1/support/thread/read')).statusCode).toBe(204);
    expect((await customer.client.get('/api/v1/support/unread')).json()).toEqual({
      unreadCount: 0,
    });
    await sink.waitForMail({ to: customer.body.email, subject: /Support replied/ });
  });

  it('shows two staff replies in the order they were sent', async () => {
    const customer = await createCustomer(app);
    const first = await staffClient(app, 'support');
    const second = await staffClient(app, 'admin');
    await customer.client.post('/api/v1/support/messages', { body: 'Hello?' });
    await first.client.post(`/api/v1/admin/users/${customer.user.id}/support`, { body: 'One' });
    await second.client.post(`/api/v1/admin/users/${customer.user.id}/support`, { body: 'Two' });
    const thread = (
      await second.client.get(`/api/v1/admin/users/${customer.user.id}/support`)
    ).json();
    expect(
      thread.messages.map((message: { body: string; authorName: string }) => message.body),
    ).toEqual(['Hello?', 'One', 'Two']);
  });

  it('keeps HTML as text, takes 4,000 characters and refuses 4,001', async () => {
    const customer = await createCustomer(app);
    const hostile = '<img src=x onerror=alert(1)> <a href="javascript:alert(2)">x</a>';
    const kept = await customer.client.post('/api/v1/support/messages', { body: hostile });
    expect(kept.json().body).toBe(hostile);
    const longest = await customer.client.post('/api/v1/support/messages', {
      body: 'x'.repeat(4_000),
    });
    expect(longest.statusCode).toBe(201);
    const tooLong = await customer.client.post('/api/v1/support/messages', {
      body: 'x'.repeat(4_001),
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error.fields.body).toBe('Use at most 4,000 characters');
    const empty = await customer.client.post('/api/v1/support/messages', { body: '   ' });
    expect(empty.statusCode).toBe(400);
  });

  it('rate-limits a burst of messages with the standard message', async () => {
    const customer = await createCustomer(app);
    const statuses: number[] = [];
    let lastBody = '';
    for (let index = 0; index < 12; index += 1) {
      const response = await customer.client.post('/api/v1/support/messages', {
        body: `m${index}`,
      });
      statuses.push(response.statusCode);
      lastBody = response.body;
    }
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    expect(statuses.at(-1)).toBe(429);
    expect(JSON.parse(lastBody).error.message).toBe('Too many requests. Please try again later.');
  });

  it('lets staff answer a frozen customer', async () => {
    const customer = await createCustomer(app);
    const admin = await staffClient(app, 'admin');
    await admin.client.post(`/api/v1/admin/users/${customer.user.id}/freeze`, { reason: 'Checks' });
    const reply = await admin.client.post(`/api/v1/admin/users/${customer.user.id}/support`, {
      body: 'Your account is under review.',
    });
    expect(reply.statusCode).toBe(201);
    expect((await customer.client.get('/api/v1/support/unread')).json()).toEqual({
      unreadCount: 1,
    });
  });

  it('answers 404 for a reply to someone who does not exist', async () => {
    const support = await staffClient(app, 'support');
    const reply = await support.client.post(
      '/api/v1/admin/users/0190a0a0-0000-7000-8000-000000000000/support',
      { body: 'Hello' },
    );
    expect(reply.statusCode).toBe(404);
  });
});

describe('assigning and resolving threads (issue #31 item 2)', () => {
  async function auditActions(userId: string): Promise<string[]> {
    const found = await db.query<{ action: string }>(
      `SELECT action FROM audit_events WHERE subject_user_id = $1
        AND action IN ('support_thread_assigned', 'support_thread_resolved') ORDER BY id`,
      [userId],
    );
    return found.rows.map((row) => row.action);
  }
  const inboxOf = async (client: TestClient) =>
    (await client.get('/api/v1/admin/queues/support')).json().items as {
      userId: string;
      awaitingStaffSince: string | null;
      assignee: { id: string; username: string } | null;
    }[];

  it('keeps an answered thread in the inbox, passed to an admin, until it is marked resolved', async () => {
    const customer = await createCustomer(app);
    const support = await staffClient(app, 'support');
    const admin = await staffClient(app, 'admin');
    await customer.client.post('/api/v1/support/messages', { body: 'May I borrow 2,000?' });
    await support.client.post(`/api/v1/admin/users/${customer.user.id}/support`, {
      body: 'I am passing you to our lending admin.',
    });
    const answered = (await inboxOf(support.client)).find(
      (item) => item.userId === customer.user.id,
    );
    expect(answered).toMatchObject({ awaitingStaffSince: null, assignee: null });

    const thread = (
      await support.client.get(`/api/v1/admin/users/${customer.user.id}/support`)
    ).json();
    expect(thread.colleagues.map((colleague: { id: string }) => colleague.id)).toContain(
      admin.user.id,
    );
    const assigned = await support.client.request(
      'PUT',
      `/api/v1/admin/users/${customer.user.id}/support/assignee`,
      { assigneeUserId: admin.user.id },
    );
    expect(assigned.statusCode).toBe(200);
    expect(assigned.json().assignee.id).toBe(admin.user.id);
    expect(
      (await inboxOf(admin.client)).find((item) => item.userId === customer.user.id)?.assignee?.id,
    ).toBe(admin.user.id);
    const adminBell = (await admin.client.get('/api/v1/notifications')).json();
    expect(adminBell.items[0].text).toMatch(/passed .+'s support thread to you\./);

    const resolved = await admin.client.post(
      `/api/v1/admin/users/${customer.user.id}/support/resolve`,
    );
    expect(resolved.statusCode).toBe(200);
    expect(resolved.json().resolvedAt).not.toBeNull();
    expect((await inboxOf(admin.client)).map((item) => item.userId)).not.toContain(
      customer.user.id,
    );
    const again = await admin.client.post(
      `/api/v1/admin/users/${customer.user.id}/support/resolve`,
    );
    expect(again.statusCode).toBe(409);
    expect(await auditActions(customer.user.id)).toEqual([
      'support_thread_assigned',
      'support_thread_resolved',
    ]);

    // The customer writes again: the thread is back, still with the admin.
    await customer.client.post('/api/v1/support/messages', { body: 'One more question' });
    const reopened = (await inboxOf(support.client)).find(
      (item) => item.userId === customer.user.id,
    );
    expect(reopened?.awaitingStaffSince).not.toBeNull();
    expect(reopened?.assignee?.id).toBe(admin.user.id);
  });

  it('refuses to assign a thread to a customer or to nobody, and answers 404 without a thread', async () => {
    const customer = await createCustomer(app);
    const other = await createCustomer(app);
    const support = await staffClient(app, 'support');
    const noThread = await support.client.request(
      'PUT',
      `/api/v1/admin/users/${customer.user.id}/support/assignee`,
      { assigneeUserId: (await staffClient(app, 'admin')).user.id },
    );
    expect(noThread.statusCode).toBe(404);
    expect(
      (await support.client.post(`/api/v1/admin/users/${customer.user.id}/support/resolve`))
        .statusCode,
    ).toBe(404);
    await customer.client.post('/api/v1/support/messages', { body: 'Hello' });
    const toCustomer = await support.client.request(
      'PUT',
      `/api/v1/admin/users/${customer.user.id}/support/assignee`,
      { assigneeUserId: other.user.id },
    );
    expect(toCustomer.statusCode).toBe(400);
    expect(toCustomer.json().error.fields.assigneeUserId).toBe(
      'Assign the thread to a member of staff',
    );
    const toNobody = await support.client.request(
      'PUT',
      `/api/v1/admin/users/${customer.user.id}/support/assignee`,
      { assigneeUserId: 'nobody' },
    );
    expect(toNobody.statusCode).toBe(400);
    expect(await auditActions(customer.user.id)).toEqual([]);
    const customerTries = await customer.client.post(
      `/api/v1/admin/users/${customer.user.id}/support/resolve`,
    );
    expect(customerTries.statusCode).toBe(404);
  });
});
