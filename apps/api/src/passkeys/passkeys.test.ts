// Passkeys through the real routes (ADR 046), answered by a software authenticator whose
// ES256 signatures @simplewebauthn/server checks as it checks a browser's.
import type { FastifyInstance } from 'fastify';
import { TOTP } from 'otpauth';
import { beforeEach, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.ts';
import { createCustomer, type TestCustomer } from '../../test/customers.ts';
import {
  lastEmailTo,
  newIdempotencyKey,
  staffClient,
  strongPassword,
  TestClient,
} from '../../test/http.ts';
import { registerPasskey, SoftwareAuthenticator } from '../../test/passkeys.ts';
import type { Database } from '../db/client.ts';

const publicUrl = 'http://bank.localhost:3000';

let app: FastifyInstance;
let db: Database;
useTestApp(
  (opened) => {
    ({ app, db } = opened);
  },
  { env: { COFFER_PUBLIC_URL: publicUrl }, checksAfterEach: 'ledger' },
);

async function signInOptions(client: TestClient) {
  const options = await client.post('/api/v1/auth/passkey/options');
  expect(options.statusCode, options.body).toBe(200);
  return options.json().options;
}

function errorCodeOf(response: { json(): { error: { code: string } } }) {
  return response.json().error.code;
}

let customer: TestCustomer;
let authenticator: SoftwareAuthenticator;

beforeEach(async () => {
  customer = await createCustomer(app, { balance: '5000.00', level: 2 });
  authenticator = new SoftwareAuthenticator(publicUrl);
});

describe('registration', () => {
  it('asks for the password first, keeps the passkey, tells by email and audits it', async () => {
    const wrong = await customer.client.post('/api/v1/profile/passkeys/options', {
      currentPassword: 'not-the-password',
    });
    expect(errorCodeOf(wrong)).toBe('wrong_password');

    const registered = await registerPasskey(customer, authenticator);
    expect(registered.statusCode, registered.body).toBe(201);
    expect(registered.json().passkeys).toEqual([
      { id: expect.any(String), name: 'My phone', createdAt: expect.any(String), lastUsedAt: null },
    ]);
    const mail = await lastEmailTo(db, customer.body.email);
    expect(mail.text).toContain('A passkey ("My phone") was added to your account');
    const audited = await db.query<{ action: string }>(
      'SELECT action FROM audit_events WHERE subject_user_id = $1 AND action = $2',
      [customer.user.id, 'passkey_added'],
    );
    expect(audited.rows).toHaveLength(1);
  });

  it("refuses an answer to another user's registration challenge, and one replayed", async () => {
    const other = await createCustomer(app);
    const started = await customer.client.post('/api/v1/profile/passkeys/options', {
      currentPassword: customer.body.password,
    });
    const response = authenticator.createResponse(started.json().options);
    const stolen = await other.client.post('/api/v1/profile/passkeys', {
      name: 'Stolen',
      response,
    });
    expect(errorCodeOf(stolen)).toBe('passkey_refused');
    // The other user's try spent nothing of ours: the challenge is bound to its user.
    const kept = await customer.client.post('/api/v1/profile/passkeys', { name: 'Mine', response });
    expect(kept.statusCode, kept.body).toBe(201);
    const replayed = await customer.client.post('/api/v1/profile/passkeys', {
      name: 'Again',
      response,
    });
    expect(errorCodeOf(replayed)).toBe('passkey_refused');
  });

  it('refuses a passkey made for another site', async () => {
    const started = await customer.client.post('/api/v1/profile/passkeys/options', {
      currentPassword: customer.body.password,
    });
    const response = authenticator.createResponse(started.json().options, {
      origin: 'https://phishing.example',
    });
    const refused = await customer.client.post('/api/v1/profile/passkeys', { name: 'X', response });
    expect(errorCodeOf(refused)).toBe('passkey_refused');
  });

  it('refuses malformed answers with 400, never 500', async () => {
    const started = await customer.client.post('/api/v1/profile/passkeys/options', {
      currentPassword: customer.body.password,
    });
    const response = authenticator.createResponse(started.json().options);
    const garbled = {
      ...response,
      response: { ...response.response, attestationObject: 'AAAA', clientDataJSON: 'e30' },
    };
    const refused = await customer.client.post('/api/v1/profile/passkeys', {
      name: 'X',
      response: garbled,
    });
    expect(refused.statusCode).toBe(400);
    const invalid = await customer.client.post('/api/v1/profile/passkeys', {
      name: 'X',
      response: { ...response, id: 'not base64url!' },
    });
    expect(errorCodeOf(invalid)).toBe('validation_failed');
  });
});

describe('passwordless sign-in', () => {
  beforeEach(async () => {
    expect((await registerPasskey(customer, authenticator)).statusCode).toBe(201);
  });

  it('signs in with the passkey and refuses the same answer replayed', async () => {
    const browser = new TestClient(app);
    const response = authenticator.getResponse(await signInOptions(browser));
    const signedIn = await browser.post('/api/v1/auth/passkey/sign-in', { response });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json()).toMatchObject({ status: 'signed_in', user: { id: customer.user.id } });
    expect((await browser.get('/api/v1/auth/me')).json().id).toBe(customer.user.id);
    const listed = await customer.client.get('/api/v1/profile/passkeys');
    expect(listed.json().passkeys[0].lastUsedAt).not.toBeNull();

    const replay = await new TestClient(app).post('/api/v1/auth/passkey/sign-in', { response });
    expect(replay.statusCode).toBe(400);
    expect(errorCodeOf(replay)).toBe('passkey_refused');
  });

  it('refuses an answer signed for another origin', async () => {
    const browser = new TestClient(app);
    const response = authenticator.getResponse(await signInOptions(browser), {
      origin: 'https://phishing.example',
    });
    const refused = await browser.post('/api/v1/auth/passkey/sign-in', { response });
    expect(errorCodeOf(refused)).toBe('passkey_refused');
    expect(browser.cookie).toBeUndefined();
  });

  it('refuses a counter that went back (a cloned authenticator)', async () => {
    const browser = new TestClient(app);
    const first = authenticator.getResponse(await signInOptions(browser), { signCount: 5 });
    expect(
      (await browser.post('/api/v1/auth/passkey/sign-in', { response: first })).statusCode,
    ).toBe(200);
    const cloned = authenticator.getResponse(await signInOptions(browser), { signCount: 3 });
    const refused = await browser.post('/api/v1/auth/passkey/sign-in', { response: cloned });
    expect(errorCodeOf(refused)).toBe('passkey_refused');
  });

  it('refuses an answer without user verification, and an unknown passkey', async () => {
    const browser = new TestClient(app);
    const unverified = authenticator.getResponse(await signInOptions(browser), {
      isUserVerified: false,
    });
    const refused = await browser.post('/api/v1/auth/passkey/sign-in', { response: unverified });
    expect(errorCodeOf(refused)).toBe('passkey_refused');

    const stranger = new SoftwareAuthenticator(publicUrl);
    stranger.createResponse({ challenge: 'unused', user: { id: 'c29tZW9uZQ' } });
    const unknown = stranger.getResponse(await signInOptions(browser));
    const notOurs = await browser.post('/api/v1/auth/passkey/sign-in', { response: unknown });
    expect(errorCodeOf(notOurs)).toBe('passkey_refused');
  });
});

describe('step-up for money out', () => {
  let recipient: TestCustomer;
  const amount = '1000.00';

  beforeEach(async () => {
    expect((await registerPasskey(customer, authenticator)).statusCode).toBe(201);
    recipient = await createCustomer(app);
  });

  const quickPay = (client: TestClient, body: object) =>
    client.post('/api/v1/transfers', body, { 'idempotency-key': newIdempotencyKey() });

  async function stepUpOptions(client: TestClient, payment: { recipient: string; amount: string }) {
    const options = await client.post('/api/v1/step-up/passkey-options', {
      purpose: 'transfer',
      ...payment,
    });
    expect(options.statusCode, options.body).toBe(200);
    return options.json().options;
  }

  it('offers the passkey and pays above the threshold with it, once', async () => {
    const payment = { recipient: recipient.wallet.number, amount };
    const challenge = await customer.client.post('/api/v1/step-up/challenges', {
      purpose: 'transfer',
      ...payment,
    });
    expect(challenge.json()).toMatchObject({ method: 'email', hasPasskeys: true });

    const stepUpPasskey = authenticator.getResponse(await stepUpOptions(customer.client, payment));
    const paid = await quickPay(customer.client, { ...payment, stepUpPasskey });
    expect(paid.statusCode, paid.body).toBe(201);

    const replayed = await quickPay(customer.client, { ...payment, stepUpPasskey });
    expect(errorCodeOf(replayed)).toBe('passkey_refused');
    expect((await app.ledger.balance(recipient.wallet.id)).balanceMinor).toBe(100_000n);
  });

  it('refuses a passkey answer given for another amount or recipient', async () => {
    const payment = { recipient: recipient.wallet.number, amount };
    const stepUpPasskey = authenticator.getResponse(await stepUpOptions(customer.client, payment));
    const more = await quickPay(customer.client, { ...payment, amount: '4000.00', stepUpPasskey });
    expect(errorCodeOf(more)).toBe('passkey_refused');
  });

  it("refuses another customer's passkey and a sign-in challenge used for a payment", async () => {
    const other = await createCustomer(app, { balance: '5000.00', level: 2 });
    const otherAuthenticator = new SoftwareAuthenticator(publicUrl);
    expect((await registerPasskey(other, otherAuthenticator)).statusCode).toBe(201);
    const payment = { recipient: recipient.wallet.number, amount };
    const options = await stepUpOptions(customer.client, payment);
    const signedByOther = otherAuthenticator.getResponse(options);
    const refused = await quickPay(customer.client, { ...payment, stepUpPasskey: signedByOther });
    expect(errorCodeOf(refused)).toBe('passkey_refused');

    const signInAnswer = authenticator.getResponse(await signInOptions(new TestClient(app)));
    const wrongFlow = await quickPay(customer.client, { ...payment, stepUpPasskey: signInAnswer });
    expect(errorCodeOf(wrongFlow)).toBe('passkey_refused');
  });
});

describe('managing passkeys', () => {
  it("renames and removes after the password; another user's passkey is not found", async () => {
    const registered = await registerPasskey(customer, authenticator);
    const [passkey] = registered.json().passkeys;
    const renamed = await customer.client.request(
      'PATCH',
      `/api/v1/profile/passkeys/${passkey.id}`,
      {
        name: 'Work laptop',
      },
    );
    expect(renamed.json().passkeys[0].name).toBe('Work laptop');

    const other = await createCustomer(app);
    const notTheirs = await other.client.post(`/api/v1/profile/passkeys/${passkey.id}/remove`, {
      currentPassword: strongPassword,
    });
    expect(notTheirs.statusCode).toBe(404);
    const wrongPassword = await customer.client.post(
      `/api/v1/profile/passkeys/${passkey.id}/remove`,
      { currentPassword: 'not-the-password' },
    );
    expect(errorCodeOf(wrongPassword)).toBe('wrong_password');

    const removed = await customer.client.post(`/api/v1/profile/passkeys/${passkey.id}/remove`, {
      currentPassword: customer.body.password,
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().passkeys).toEqual([]);
    const mail = await lastEmailTo(db, customer.body.email);
    expect(mail.text).toContain('The passkey "Work laptop" was removed');

    // A removed passkey signs in no more.
    const browser = new TestClient(app);
    const response = authenticator.getResponse(await signInOptions(browser));
    expect(errorCodeOf(await browser.post('/api/v1/auth/passkey/sign-in', { response }))).toBe(
      'passkey_refused',
    );
  });
});

describe('second factor beside the authenticator app', () => {
  async function enableTotp(client: TestClient): Promise<void> {
    const setup = await client.post('/api/v1/profile/totp/setup', {
      currentPassword: customer.body.password,
    });
    const totp = new TOTP({ secret: setup.json().secret });
    const enabled = await client.post('/api/v1/profile/totp/enable', { code: totp.generate() });
    expect(enabled.statusCode, enabled.body).toBe(200);
  }

  async function passwordStep(browser: TestClient): Promise<string> {
    const login = await browser.post('/api/v1/auth/login', {
      email: customer.body.email,
      password: customer.body.password,
    });
    expect(login.json().status).toBe('second_factor_required');
    return login.json().challengeToken;
  }

  it("answers a password sign-in's second step with a passkey, not another user's", async () => {
    expect((await registerPasskey(customer, authenticator)).statusCode).toBe(201);
    await enableTotp(customer.client);
    const other = await createCustomer(app);
    const otherAuthenticator = new SoftwareAuthenticator(publicUrl);
    expect((await registerPasskey(other, otherAuthenticator)).statusCode).toBe(201);

    const browser = new TestClient(app);
    const challengeToken = await passwordStep(browser);
    const askOptions = () =>
      browser.post('/api/v1/auth/login/second-factor/passkey-options', { challengeToken });
    const byOther = otherAuthenticator.getResponse((await askOptions()).json().options);
    const refused = await browser.post('/api/v1/auth/login/second-factor/passkey', {
      challengeToken,
      response: byOther,
    });
    expect(errorCodeOf(refused)).toBe('passkey_refused');
    expect(browser.cookie).toBeUndefined();

    const response = authenticator.getResponse((await askOptions()).json().options);
    const signedIn = await browser.post('/api/v1/auth/login/second-factor/passkey', {
      challengeToken,
      response,
    });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect((await browser.get('/api/v1/auth/me')).json().id).toBe(customer.user.id);

    // The login challenge is used: its passkey options are refused, as a code would be.
    expect(errorCodeOf(await askOptions())).toBe('link_expired');
  });
});

describe('staff', () => {
  it('have the same passkeys, audited, and sign in to the back office with one', async () => {
    const staff = await staffClient(app, 'support');
    const started = await staff.client.post('/api/v1/profile/passkeys/options', {
      currentPassword: strongPassword,
    });
    const response = authenticator.createResponse(started.json().options);
    const registered = await staff.client.post('/api/v1/profile/passkeys', {
      name: 'Desk key',
      response,
    });
    expect(registered.statusCode, registered.body).toBe(201);
    const audited = await db.query<{ actor_user_id: string; after: unknown }>(
      `SELECT actor_user_id, after FROM audit_events
        WHERE subject_user_id = $1 AND action = 'passkey_added'`,
      [staff.user.id],
    );
    expect(audited.rows).toEqual([
      { actor_user_id: staff.user.id, after: { passkeyId: expect.any(String), name: 'Desk key' } },
    ]);
    expect((await lastEmailTo(db, staff.user.email)).text).toContain('A passkey ("Desk key")');

    const browser = new TestClient(app);
    const answer = authenticator.getResponse(await signInOptions(browser));
    const signedIn = await browser.post('/api/v1/auth/passkey/sign-in', { response: answer });
    expect(signedIn.json()).toMatchObject({ status: 'signed_in', user: { role: 'support' } });
    expect((await browser.get('/api/v1/admin/users')).statusCode).toBe(200);

    const [passkey] = registered.json().passkeys;
    const removed = await browser.post(`/api/v1/profile/passkeys/${passkey.id}/remove`, {
      currentPassword: strongPassword,
    });
    expect(removed.statusCode, removed.body).toBe(200);
    const removals = await db.query(
      `SELECT 1 FROM audit_events WHERE subject_user_id = $1 AND action = 'passkey_removed'`,
      [staff.user.id],
    );
    expect(removals.rows).toHaveLength(1);
  });
});
