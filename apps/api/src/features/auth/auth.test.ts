import type { FastifyInstance } from 'fastify';
import { TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { buildTestApp, useTestApp } from '../../../test/app.ts';
import {
  lastEmailTo,
  newSignup,
  signedUpClient,
  strongPassword,
  TestClient,
  tokenOf,
} from '../../../test/http.ts';
import type { Database } from '../../db/client.ts';

let db: Database;
let app: FastifyInstance;

useTestApp(
  (opened) => {
    ({ app, db } = opened);
  },
  { checksAfterEach: 'ledger' },
);

function currentCode(secret: string, offsetSteps = 0): string {
  return new TOTP({ secret, digits: 6, period: 30 }).generate({
    timestamp: Date.now() + offsetSteps * 30_000,
  });
}

async function enableTotp(
  client: TestClient,
): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await client.post('/api/v1/profile/totp/setup', {
    currentPassword: strongPassword,
  });
  expect(setup.statusCode).toBe(200);
  const { secret } = setup.json();
  const enabled = await client.post('/api/v1/profile/totp/enable', { code: currentCode(secret) });
  expect(enabled.statusCode).toBe(200);
  return { secret, recoveryCodes: enabled.json().recoveryCodes };
}

describe('sign-up', () => {
  it('creates the customer with a wallet in their country’s currency and signs them in', async () => {
    const { client, body, user } = await signedUpClient(app, { country: 'DE' });
    expect(user).toMatchObject({
      email: body.email,
      isEmailVerified: false,
      role: 'customer',
      level: 1,
      currency: 'EUR',
    });
    const me = await client.get('/api/v1/auth/me');
    expect(me.statusCode).toBe(200);
    expect(me.json().id).toBe(user.id);
    const wallets = await db.query<{ currency: string; number: string }>(
      "SELECT currency, number FROM accounts WHERE owner_user_id = $1 AND kind = 'customer'",
      [user.id],
    );
    expect(wallets.rows).toEqual([{ currency: 'EUR', number: expect.stringMatching(/^\d{10}$/) }]);
    const mail = await lastEmailTo(db, body.email);
    expect(mail.link).toContain('/verify-email?token=');
  });

  it('sets an HttpOnly, SameSite=Lax session cookie of at least 128 random bits', async () => {
    const response = await new TestClient(app).post('/api/v1/auth/signup', newSignup());
    const cookie = response.cookies.find((item) => item.name === 'coffer_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.secure).toBeFalsy();
    expect(Buffer.from(cookie?.value ?? '', 'base64url').length).toBeGreaterThanOrEqual(16);
  });

  it('asks for every field', async () => {
    const response = await new TestClient(app).post('/api/v1/auth/signup', {
      ...newSignup(),
      username: '',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({
      code: 'validation_failed',
      message: 'Please fill in all fields',
    });
  });

  it('refuses an address already in use, whatever its case', async () => {
    const { body } = await signedUpClient(app);
    const response = await new TestClient(app).post(
      '/api/v1/auth/signup',
      newSignup({ email: body.email.toUpperCase() }),
    );
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toMatchObject({
      code: 'email_in_use',
      message: 'Email already in use',
    });
  });

  it.each(['short1!', 'password123', 'qwertyuiop'])(
    'refuses the weak password %j',
    async (password) => {
      const response = await new TestClient(app).post(
        '/api/v1/auth/signup',
        newSignup({ password }),
      );
      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toBe('Password is too weak');
    },
  );

  it('checks the phone number and the country', async () => {
    const badPhone = await new TestClient(app).post(
      '/api/v1/auth/signup',
      newSignup({ phone: '+1 555' }),
    );
    expect(badPhone.statusCode).toBe(400);
    expect(badPhone.json().error.fields.phone).toMatch(/valid international number/);
    const badCountry = await new TestClient(app).post(
      '/api/v1/auth/signup',
      newSignup({ country: 'XX' }),
    );
    expect(badCountry.json().error.fields.country).toBe('Choose a country from the list');
  });

  it('verifies the email address from the emailed link, once', async () => {
    const { client, body } = await signedUpClient(app);
    const token = tokenOf((await lastEmailTo(db, body.email)).link);
    const verified = await client.post('/api/v1/auth/verify-email', { token });
    expect(verified.statusCode).toBe(200);
    expect(verified.json().user.isEmailVerified).toBe(true);
    const again = await client.post('/api/v1/auth/verify-email', { token });
    expect(again.json().error.code).toBe('link_expired');
  });
});

describe('login and logout', () => {
  it('gives one message for a wrong password and an unknown address', async () => {
    const { body } = await signedUpClient(app);
    const wrongPassword = await new TestClient(app).post('/api/v1/auth/login', {
      email: body.email,
      password: 'nope-nope-nope',
    });
    const unknown = await new TestClient(app).post('/api/v1/auth/login', {
      email: 'nobody@example.com',
      password: 'whatever',
    });
    for (const response of [wrongPassword, unknown]) {
      expect(response.statusCode).toBe(401);
      expect(response.json().error).toEqual({
        code: 'invalid_credentials',
        message: 'Invalid email or password',
      });
    }
  });

  it('tells a page who is signed in without an error for visitors', async () => {
    const visitor = await new TestClient(app).get('/api/v1/auth/session');
    expect(visitor.statusCode).toBe(200);
    expect(visitor.json()).toEqual({ user: null });
    const { client, user } = await signedUpClient(app);
    expect((await client.get('/api/v1/auth/session')).json().user.id).toBe(user.id);
  });

  it('asks for both fields', async () => {
    const response = await new TestClient(app).post('/api/v1/auth/login', {
      email: '',
      password: '',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe('Please enter both email and password');
  });

  it('signs in with any case of the address and ends the session on logout', async () => {
    const { body } = await signedUpClient(app);
    const client = new TestClient(app);
    const login = await client.post('/api/v1/auth/login', {
      email: body.email.toUpperCase(),
      password: body.password,
    });
    expect(login.json()).toMatchObject({ status: 'signed_in', user: { email: body.email } });
    const cookie = client.cookie;
    expect((await client.get('/api/v1/auth/me')).statusCode).toBe(200);
    expect((await client.post('/api/v1/auth/logout')).statusCode).toBe(204);
    expect(client.cookie).toBeUndefined();
    const replayed = await app.inject({
      method: 'GET',
      url: '/api/v1/auth/me',
      headers: { cookie: cookie ?? '' },
    });
    expect(replayed.statusCode).toBe(401);
  });

  it('issues a new session id at login instead of keeping the old one', async () => {
    const { client, body } = await signedUpClient(app);
    const before = client.cookie;
    await client.post('/api/v1/auth/login', { email: body.email, password: body.password });
    expect(client.cookie).not.toBe(before);
    const old = await app.inject({
      method: 'GET',
      url: '/api/v1/auth/me',
      headers: { cookie: before ?? '' },
    });
    expect(old.statusCode).toBe(401);
  });

  it('locks an address after five failures, even for the right password, and says so', async () => {
    const { body } = await signedUpClient(app);
    const client = new TestClient(app);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const failed = await client.post('/api/v1/auth/login', {
        email: body.email,
        password: `wrong-${attempt}`,
      });
      expect(failed.statusCode).toBe(401);
    }
    const locked = await client.post('/api/v1/auth/login', {
      email: body.email,
      password: body.password,
    });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error.message).toBe('Too many attempts. Please try again later.');
  });

  it('locks an unknown address the same way, so lockouts do not reveal accounts', async () => {
    const client = new TestClient(app);
    const email = `ghost.${Date.now()}@example.com`;
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await client.post('/api/v1/auth/login', { email, password: 'whatever' });
    }
    expect(
      (await client.post('/api/v1/auth/login', { email, password: 'whatever' })).statusCode,
    ).toBe(429);
  });

  it('limits login attempts per client address', async () => {
    const client = new TestClient(app);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 31; attempt += 1) {
      const response = await client.post('/api/v1/auth/login', {
        email: `spray${attempt}@example.com`,
        password: 'x',
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 30).every((status) => status === 401)).toBe(true);
    expect(statuses[30]).toBe(429);
  });

  it('never refuses an office of 40 people signing in behind one address, only its failures', async () => {
    const officeAddress = '10.250.0.1';
    const fromOffice = (email: string, password: string) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        remoteAddress: officeAddress,
        payload: { email, password },
      });
    const colleagues = [];
    for (let index = 0; index < 40; index += 1) colleagues.push((await signedUpClient(app)).body);

    const signIns = [];
    for (const colleague of colleagues) {
      signIns.push((await fromOffice(colleague.email, colleague.password)).statusCode);
    }
    expect(signIns).toEqual(Array(40).fill(200));

    const failures = [];
    for (let attempt = 0; attempt < 30; attempt += 1) {
      failures.push((await fromOffice(`guess${attempt}@example.com`, 'x')).statusCode);
    }
    expect(failures).toEqual(Array(30).fill(401));
    const [first] = colleagues;
    const afterThirtyFailures = await fromOffice(first?.email ?? '', first?.password ?? '');
    expect(afterThirtyFailures.statusCode).toBe(429);
    expect(afterThirtyFailures.json().error.code).toBe('too_many_attempts');
  });
});

describe('sessions', () => {
  it('expires after 30 idle minutes', async () => {
    const { client, user } = await signedUpClient(app);
    await db.query(
      "UPDATE sessions SET last_used_at = now() - interval '31 minutes' WHERE user_id = $1",
      [user.id],
    );
    expect((await client.get('/api/v1/auth/me')).statusCode).toBe(401);
  });

  it('expires 12 hours after sign-in however active it is', async () => {
    const { client, user } = await signedUpClient(app);
    await db.query(
      "UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1",
      [user.id],
    );
    expect((await client.get('/api/v1/auth/me')).statusCode).toBe(401);
  });

  it('stores only a hash of the session id', async () => {
    const { client, user } = await signedUpClient(app);
    const token = client.cookie?.split('=')[1] ?? '';
    const stored = await db.query<{ token_hash: string }>(
      'SELECT token_hash FROM sessions WHERE user_id = $1',
      [user.id],
    );
    expect(stored.rows[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.rows[0]?.token_hash).not.toContain(token);
  });

  it('refuses unsafe requests from another origin', async () => {
    const { client } = await signedUpClient(app);
    const crossSite = await client.post('/api/v1/auth/logout', undefined, {
      origin: 'https://evil.example',
    });
    expect(crossSite.statusCode).toBe(403);
    expect((await client.get('/api/v1/auth/me')).statusCode).toBe(200);
    const sameSite = await client.post('/api/v1/auth/logout', undefined, {
      origin: 'http://localhost:80',
    });
    expect(sameSite.statusCode).toBe(204);
  });

  it('lists sessions and revokes one, which is then refused', async () => {
    const { client, body } = await signedUpClient(app);
    const phone = new TestClient(app);
    await phone.request(
      'POST',
      '/api/v1/auth/login',
      { email: body.email, password: body.password },
      {
        'user-agent':
          'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile Safari/604.1',
      },
    );
    const listed = (await client.get('/api/v1/profile/sessions')).json().sessions;
    expect(listed).toHaveLength(2);
    const other = listed.find((session: { isCurrent: boolean }) => !session.isCurrent);
    expect(other.device).toBe('Safari on iOS');
    expect(
      (await client.request('DELETE', `/api/v1/profile/sessions/${other.id}`)).statusCode,
    ).toBe(204);
    expect((await phone.get('/api/v1/auth/me')).statusCode).toBe(401);
  });

  it('answers 404 for another person’s session', async () => {
    const alice = await signedUpClient(app);
    const bob = await signedUpClient(app);
    const bobSession = (await bob.client.get('/api/v1/profile/sessions')).json().sessions[0];
    const attempt = await alice.client.request(
      'DELETE',
      `/api/v1/profile/sessions/${bobSession.id}`,
    );
    expect(attempt.statusCode).toBe(404);
    expect((await bob.client.get('/api/v1/auth/me')).statusCode).toBe(200);
  });

  it('uses a __Host- prefixed Secure cookie when served over HTTPS', async () => {
    const httpsApp = await buildTestApp(db, { COFFER_PUBLIC_URL: 'https://bank.example.org' });
    const response = await new TestClient(httpsApp).post('/api/v1/auth/signup', newSignup());
    const cookie = response.cookies.find((item) => item.name === '__Host-coffer_session');
    expect(cookie).toMatchObject({ secure: true, httpOnly: true, path: '/' });
    await httpsApp.close();
  });
});

describe('password reset', () => {
  it('answers the same whether or not the address has an account', async () => {
    const { body } = await signedUpClient(app);
    const known = await new TestClient(app).post('/api/v1/auth/forgot-password', {
      email: body.email,
    });
    const unknown = await new TestClient(app).post('/api/v1/auth/forgot-password', {
      email: 'nobody@example.com',
    });
    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    expect(known.body).toBe(unknown.body);
    expect(known.json().message).toBe('Password reset email sent! Check your inbox.');
  });

  it('sets a new password from the single-use link and ends every session', async () => {
    const { client, body } = await signedUpClient(app);
    await new TestClient(app).post('/api/v1/auth/forgot-password', { email: body.email });
    await expect
      .poll(async () => (await lastEmailTo(db, body.email)).subject)
      .toMatch(/Reset your/);
    const token = tokenOf((await lastEmailTo(db, body.email)).link);
    const newPassword = 'Copper-Meadow-Violin-77';
    const reset = await new TestClient(app).post('/api/v1/auth/reset-password', {
      token,
      password: newPassword,
    });
    expect(reset.statusCode).toBe(204);
    expect((await client.get('/api/v1/auth/me')).statusCode).toBe(401);
    const oldPassword = await new TestClient(app).post('/api/v1/auth/login', {
      email: body.email,
      password: body.password,
    });
    expect(oldPassword.statusCode).toBe(401);
    const withNew = await new TestClient(app).post('/api/v1/auth/login', {
      email: body.email,
      password: newPassword,
    });
    expect(withNew.json().status).toBe('signed_in');
    const reused = await new TestClient(app).post('/api/v1/auth/reset-password', {
      token,
      password: 'Another-Good-Pass-91',
    });
    expect(reused.json().error.code).toBe('link_expired');
  });

  it('refuses an expired link', async () => {
    const { body, user } = await signedUpClient(app);
    await new TestClient(app).post('/api/v1/auth/forgot-password', { email: body.email });
    await expect
      .poll(async () => (await lastEmailTo(db, body.email)).subject)
      .toMatch(/Reset your/);
    const token = tokenOf((await lastEmailTo(db, body.email)).link);
    await db.query(
      "UPDATE email_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1",
      [user.id],
    );
    const reset = await new TestClient(app).post('/api/v1/auth/reset-password', {
      token,
      password: 'Copper-Meadow-Violin-77',
    });
    expect(reset.statusCode).toBe(400);
    expect(reset.json().error.code).toBe('link_expired');
  });

  it('limits reset requests per client address', async () => {
    const client = new TestClient(app);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      statuses.push(
        (await client.post('/api/v1/auth/forgot-password', { email: `r${attempt}@example.com` }))
          .statusCode,
      );
    }
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
    const limited = await client.post('/api/v1/auth/forgot-password', { email: 'r@example.com' });
    expect(limited.json().error.message).toBe('Too many requests. Please try again later.');
  });

  it.each([
    ['', 'Please enter your email address'],
    ['not-an-address', 'Invalid email address'],
  ])('explains a bad address %j: %s', async (email, message) => {
    const response = await new TestClient(app).post('/api/v1/auth/forgot-password', { email });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe(message);
  });
});

describe('two-factor authentication', () => {
  it('asks for the authenticator code after the password and accepts each code once', async () => {
    const { client, body } = await signedUpClient(app);
    const { secret } = await enableTotp(client);
    const login = await new TestClient(app).post('/api/v1/auth/login', {
      email: body.email,
      password: body.password,
    });
    expect(login.json()).toEqual({
      status: 'second_factor_required',
      challengeToken: expect.any(String),
    });
    const { challengeToken } = login.json();
    const wrong = await new TestClient(app).post('/api/v1/auth/login/second-factor', {
      challengeToken,
      code: '000000',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.message).toBe('Wrong verification code. Please try again.');
    // Enrolment spent the current step's code; the next step's is valid within the window.
    const code = currentCode(secret, 1);
    const second = new TestClient(app);
    const accepted = await second.post('/api/v1/auth/login/second-factor', {
      challengeToken,
      code,
    });
    expect(accepted.json().status).toBe('signed_in');
    expect((await second.get('/api/v1/auth/me')).statusCode).toBe(200);

    const again = await new TestClient(app).post('/api/v1/auth/login', {
      email: body.email,
      password: body.password,
    });
    const replay = await new TestClient(app).post('/api/v1/auth/login/second-factor', {
      challengeToken: again.json().challengeToken,
      code,
    });
    expect(replay.json().error.code).toBe('wrong_code');
    const enrolmentCode = currentCode(secret);
    const older = await new TestClient(app).post('/api/v1/auth/login/second-factor', {
      challengeToken: again.json().challengeToken,
      code: enrolmentCode,
    });
    expect(older.json().error.code).toBe('wrong_code');
  });

  it('accepts each recovery code once', async () => {
    const { client, body } = await signedUpClient(app);
    const { recoveryCodes } = await enableTotp(client);
    expect(recoveryCodes).toHaveLength(10);
    const [recoveryCode] = recoveryCodes;
    const login = async () =>
      (
        await new TestClient(app).post('/api/v1/auth/login', {
          email: body.email,
          password: body.password,
        })
      ).json().challengeToken;
    const first = await new TestClient(app).post('/api/v1/auth/login/second-factor', {
      challengeToken: await login(),
      code: recoveryCode?.toUpperCase(),
    });
    expect(first.json().status).toBe('signed_in');
    const second = await new TestClient(app).post('/api/v1/auth/login/second-factor', {
      challengeToken: await login(),
      code: recoveryCode,
    });
    expect(second.json().error.code).toBe('wrong_code');
  });

  it('gives up on a challenge after five wrong codes', async () => {
    const { client, body } = await signedUpClient(app);
    await enableTotp(client);
    const { challengeToken } = (
      await new TestClient(app).post('/api/v1/auth/login', {
        email: body.email,
        password: body.password,
      })
    ).json();
    const guesser = new TestClient(app);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await guesser.post('/api/v1/auth/login/second-factor', {
        challengeToken,
        code: `00000${attempt}`,
      });
    }
    const blocked = await guesser.post('/api/v1/auth/login/second-factor', {
      challengeToken,
      code: '123456',
    });
    expect(blocked.statusCode).toBe(429);
  });

  it('offers to sign out other sessions when two-factor is turned on', async () => {
    const { client, body } = await signedUpClient(app);
    const laptop = new TestClient(app);
    await laptop.post('/api/v1/auth/login', { email: body.email, password: body.password });
    const setup = await client.post('/api/v1/profile/totp/setup', {
      currentPassword: strongPassword,
    });
    const enabled = await client.post('/api/v1/profile/totp/enable', {
      code: currentCode(setup.json().secret),
      endOtherSessions: true,
    });
    expect(enabled.statusCode).toBe(200);
    expect((await laptop.get('/api/v1/auth/me')).statusCode).toBe(401);
    expect((await client.get('/api/v1/auth/me')).statusCode).toBe(200);
  });

  it('needs the current password to start, and a code to turn it off', async () => {
    const { client } = await signedUpClient(app);
    const refused = await client.post('/api/v1/profile/totp/setup', { currentPassword: 'not-it' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe('Your current password is not correct.');
    const { recoveryCodes } = await enableTotp(client);
    expect((await client.post('/api/v1/profile/totp/disable', { code: '999999' })).statusCode).toBe(
      400,
    );
    expect(
      (await client.post('/api/v1/profile/totp/disable', { code: recoveryCodes[3] })).statusCode,
    ).toBe(204);
    expect((await client.get('/api/v1/auth/me')).json().hasTotp).toBe(false);
  });
});

describe('roles', () => {
  it('hides staff routes from customers behind a 404 and lets admins in', async () => {
    const { client, user } = await signedUpClient(app);
    expect((await client.get('/api/v1/admin/ledger-health')).statusCode).toBe(404);
    await db.query("UPDATE users SET role = 'admin' WHERE id = $1", [user.id]);
    const health = await client.get('/api/v1/admin/ledger-health');
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ isBalanced: true, violations: [] });
  });
});
