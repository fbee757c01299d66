import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/app.ts';
import { createCustomer } from '../../../test/customers.ts';
import { openTestDatabase } from '../../../test/database.ts';
import { staffClient } from '../../../test/http.ts';
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
    const after = (await support.client.get('/api/v1/admin/queues/support')).json();
    expect(after.items.map((item: { userId: string }) => item.userId)).not.toContain(
      customer.user.id,
    );
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
