import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/app.ts';
import { openTestDatabase } from '../../../test/database.ts';
import {
  lastEmailTo,
  signedUpClient,
  staffClient,
  strongPassword,
  TestClient,
  tokenOf,
} from '../../../test/http.ts';
import { startSmtpSink } from '../../../test/smtp-sink.ts';
import type { Database } from '../../db/client.ts';

let db: Database;
let app: FastifyInstance;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;

beforeAll(async () => {
  db = await openTestDatabase();
  sink = await startSmtpSink();
  app = await buildTestApp(db, {
    SMTP_URL: sink.url,
    COFFER_PUBLIC_URL: 'http://bank.localhost:3000',
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await sink.stop();
  await db.close();
});

describe('profile', () => {
  it('shows the customer’s details, wallet and level', async () => {
    const { client, body } = await signedUpClient(app, { country: 'JP' });
    const profile = (await client.get('/api/v1/profile')).json();
    expect(profile).toMatchObject({
      username: body.username,
      email: body.email,
      phone: '+14155552671',
      country: 'JP',
      countryName: 'Japan',
      currency: 'JPY',
      level: 1,
      role: 'customer',
      hasTotp: false,
      pendingEmail: null,
      accountNumber: expect.stringMatching(/^\d{10}$/),
    });
    expect(profile).not.toHaveProperty('passwordHash');
  });

  it('refuses visitors', async () => {
    expect((await new TestClient(app).get('/api/v1/profile')).statusCode).toBe(401);
  });

  it('renames the user', async () => {
    const { client } = await signedUpClient(app);
    const renamed = await client.request('PATCH', '/api/v1/profile/username', {
      username: 'Ada Lovelace',
    });
    expect(renamed.json().username).toBe('Ada Lovelace');
  });

  it('lists a username change in the account’s activity, and the old and new name for staff', async () => {
    const { client, user, body } = await signedUpClient(app);
    const rename = (username: string) =>
      client.request('PATCH', '/api/v1/profile/username', { username });
    expect((await rename('Grace Hopper')).statusCode).toBe(200);
    // The same name again changes nothing and records nothing.
    expect((await rename('Grace Hopper')).statusCode).toBe(200);

    const activity = (await client.get('/api/v1/profile/activity')).json().items;
    expect(
      activity.filter((item: { action: string }) => item.action === 'username_changed'),
    ).toEqual([
      expect.objectContaining({ action: 'username_changed', isByStaff: false, reason: null }),
    ]);
    const admin = await staffClient(app, 'admin');
    const audit = await admin.client.get(
      `/api/v1/admin/audit?subjectUserId=${user.id}&action=username_changed`,
    );
    expect(audit.json().items).toEqual([
      expect.objectContaining({
        actor: { id: user.id, username: 'Grace Hopper' },
        before: { username: body.username },
        after: { username: 'Grace Hopper' },
      }),
    ]);
  });

  it('changes the email address only after the new one is verified, over real SMTP', async () => {
    const { client, body } = await signedUpClient(app);
    const newEmail = `moved.${Date.now()}@example.com`;
    const wrongPassword = await client.post('/api/v1/profile/email', {
      newEmail,
      currentPassword: 'nope',
    });
    expect(wrongPassword.statusCode).toBe(403);

    const requested = await client.post('/api/v1/profile/email', {
      newEmail,
      currentPassword: strongPassword,
    });
    expect(requested.statusCode).toBe(202);
    expect(requested.json()).toMatchObject({ email: body.email, pendingEmail: newEmail });

    const notice = await sink.waitForMail({ to: body.email, subject: /being changed/ });
    expect(notice.text).toContain(newEmail);
    const verification = await sink.waitForMail({ to: newEmail, subject: /Confirm your email/ });
    const link = /https?:\/\/\S+/.exec(verification.text)?.[0] ?? '';
    expect(link.startsWith('http://bank.localhost:3000/verify-email?token=')).toBe(true);

    const verified = await client.post('/api/v1/auth/verify-email', { token: tokenOf(link) });
    expect(verified.json().user).toMatchObject({ email: newEmail, isEmailVerified: true });
    const login = await new TestClient(app).post('/api/v1/auth/login', {
      email: newEmail,
      password: strongPassword,
    });
    expect(login.json().status).toBe('signed_in');
  });

  it('refuses to move to an address another account has', async () => {
    const { client } = await signedUpClient(app);
    const other = await signedUpClient(app);
    const taken = await client.post('/api/v1/profile/email', {
      newEmail: other.body.email,
      currentPassword: strongPassword,
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.message).toBe('Email already in use');
  });

  it('changes the password, keeps this device signed in under a new id, and ends the others', async () => {
    const { client, body } = await signedUpClient(app);
    const laptop = new TestClient(app);
    await laptop.post('/api/v1/auth/login', { email: body.email, password: strongPassword });
    const before = client.cookie;
    const newPassword = 'Saffron-Glacier-Tuba-58';
    const changed = await client.post('/api/v1/profile/password', {
      currentPassword: strongPassword,
      newPassword,
      endOtherSessions: true,
    });
    expect(changed.statusCode).toBe(204);
    expect(client.cookie).not.toBe(before);
    expect((await client.get('/api/v1/auth/me')).statusCode).toBe(200);
    expect((await laptop.get('/api/v1/auth/me')).statusCode).toBe(401);
    await sink.waitForMail({ to: body.email, subject: /password was changed/ });
    const withOld = await new TestClient(app).post('/api/v1/auth/login', {
      email: body.email,
      password: strongPassword,
    });
    expect(withOld.statusCode).toBe(401);
  });

  it('refuses a weak new password and a wrong current one', async () => {
    const { client } = await signedUpClient(app);
    const weak = await client.post('/api/v1/profile/password', {
      currentPassword: strongPassword,
      newPassword: 'password1',
    });
    expect(weak.json().error).toMatchObject({
      message: 'Password is too weak',
      fields: { newPassword: 'Password is too weak' },
    });
    const wrong = await client.post('/api/v1/profile/password', {
      currentPassword: 'x',
      newPassword: 'Saffron-Glacier-Tuba-58',
    });
    expect(wrong.statusCode).toBe(403);
  });

  it('delivers the sign-up verification over SMTP and the link verifies the address', async () => {
    const { client, body } = await signedUpClient(app);
    const mail = await sink.waitForMail({ to: body.email, subject: /Confirm your email/ });
    const token = tokenOf(/https?:\/\/\S+/.exec(mail.text)?.[0] ?? null);
    expect(
      (await client.post('/api/v1/auth/verify-email', { token })).json().user.isEmailVerified,
    ).toBe(true);
    expect((await lastEmailTo(db, body.email)).subject).toMatch(/Confirm your email/);
  });
});
