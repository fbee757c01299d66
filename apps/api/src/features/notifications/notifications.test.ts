import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/app.ts';
import { createCustomer } from '../../../test/customers.ts';
import { openTestDatabase } from '../../../test/database.ts';
import { staffClient, type TestClient } from '../../../test/http.ts';
import { startSmtpSink } from '../../../test/smtp-sink.ts';
import { quickPay } from '../../../test/transfers.ts';
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

async function bell(client: TestClient) {
  const response = await client.get('/api/v1/notifications');
  expect(response.statusCode).toBe(200);
  return response.json() as {
    items: { id: string; kind: string; text: string; isRead: boolean }[];
    unreadCount: number;
  };
}

describe('notifications', () => {
  it('tells the recipient of a Quick Pay in the bell and by email, once per payment', async () => {
    const sender = await createCustomer(app, { balance: '100.00' });
    const recipient = await createCustomer(app);
    const key = 'notify-quick-pay';
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const paid = await quickPay(
        sender.client,
        { recipient: recipient.wallet.number, amount: '12.50' },
        key,
      );
      expect(paid.statusCode).toBe(201);
    }
    const received = (await bell(recipient.client)).items.filter(
      (item) => item.kind === 'money_received',
    );
    expect(received).toEqual([
      expect.objectContaining({ text: 'You received $12.50 by Quick Pay.', isRead: false }),
    ]);
    const mail = await sink.waitForMail({ to: recipient.body.email, subject: /received \$12\.50/ });
    expect(mail.text).toContain('/dashboard');
    // The sender's bell has the payment once, and no email about it.
    expect((await bell(sender.client)).items.filter((item) => item.kind === 'money_sent')).toEqual([
      expect.objectContaining({ text: 'You sent $12.50 by Quick Pay.' }),
    ]);
    const sentMail = await db.query(
      "SELECT 1 FROM outbox_emails WHERE to_address = $1 AND subject LIKE 'You sent%'",
      [sender.body.email],
    );
    expect(sentMail.rows).toEqual([]);
  });

  it('sends no money email to a customer who switched them off, but still fills the bell', async () => {
    const sender = await createCustomer(app, { balance: '100.00' });
    const recipient = await createCustomer(app);
    const switched = await recipient.client.request(
      'PATCH',
      '/api/v1/notifications/email-setting',
      { wantsNotificationEmails: false },
    );
    expect(switched.json()).toEqual({ wantsNotificationEmails: false });
    await quickPay(sender.client, { recipient: recipient.wallet.number, amount: '3.00' });
    expect((await bell(recipient.client)).items[0]?.kind).toBe('money_received');
    const queued = await db.query(
      "SELECT 1 FROM outbox_emails WHERE to_address = $1 AND subject LIKE '%received%'",
      [recipient.body.email],
    );
    expect(queued.rows).toEqual([]);
  });

  it('always emails security events, whatever the switch says', async () => {
    const { client, body } = await createCustomer(app);
    await client.request('PATCH', '/api/v1/notifications/email-setting', {
      wantsNotificationEmails: false,
    });
    const changed = await client.post('/api/v1/profile/password', {
      currentPassword: body.password,
      newPassword: 'Quartz-Meadow-Violin-77',
      endOtherSessions: false,
    });
    expect(changed.statusCode).toBe(204);
    expect((await bell(client)).items[0]).toMatchObject({ kind: 'password_changed' });
    const mail = await sink.waitForMail({ to: body.email, subject: /password was changed/ });
    expect(mail.text).toContain('We always email you about the security of your account.');
  });

  it('tells about a sign-in from a browser the account never used, and not again', async () => {
    const { client, body } = await createCustomer(app);
    const signIn = (userAgent: string) =>
      client.request(
        'POST',
        '/api/v1/auth/login',
        { email: body.email, password: body.password },
        { 'user-agent': userAgent },
      );
    const browser = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/130.0 Safari/537.36';
    expect((await signIn(browser)).statusCode).toBe(200);
    expect((await signIn(browser)).statusCode).toBe(200);
    const newDevice = (await bell(client)).items.filter(
      (item) => item.kind === 'new_device_sign_in',
    );
    expect(newDevice).toHaveLength(1);
    await sink.waitForMail({ to: body.email, subject: /New sign-in/ });
  });

  it('marks one read, then all, and answers 404 for another person’s notification', async () => {
    const sender = await createCustomer(app, { balance: '100.00' });
    const recipient = await createCustomer(app);
    await quickPay(sender.client, { recipient: recipient.wallet.number, amount: '1.00' });
    await quickPay(sender.client, { recipient: recipient.wallet.number, amount: '2.00' });
    const before = await bell(recipient.client);
    const first = before.items[0];
    if (!first) throw new Error('a notification');
    expect(before.unreadCount).toBeGreaterThanOrEqual(2);
    const stranger = await staffClient(app, 'admin');
    expect((await sender.client.post(`/api/v1/notifications/${first.id}/read`)).statusCode).toBe(
      404,
    );
    expect((await stranger.client.post(`/api/v1/notifications/${first.id}/read`)).statusCode).toBe(
      404,
    );
    expect((await recipient.client.post(`/api/v1/notifications/${first.id}/read`)).statusCode).toBe(
      204,
    );
    const after = await bell(recipient.client);
    expect(after.unreadCount).toBe(before.unreadCount - 1);
    expect(after.items[0]?.isRead).toBe(true);
    expect((await recipient.client.post('/api/v1/notifications/read-all')).statusCode).toBe(204);
    expect((await bell(recipient.client)).unreadCount).toBe(0);
  });
});
