import { languageCookieName } from '@coffer/contracts/languages';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/app.ts';
import { openTestDatabase } from '../../../test/database.ts';
import { signedUpClient, staffClient, strongPassword, TestClient } from '../../../test/http.ts';
import type { Database } from '../../db/client.ts';
import { storedLanguage } from '../../platform/languages.ts';

let db: Database;
let app: FastifyInstance;

beforeAll(async () => {
  db = await openTestDatabase();
  // Arabic left out: a language the operator has not enabled.
  app = await buildTestApp(db, { COFFER_LANGUAGES: 'en,de,ja' });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await db.close();
});

function signUpWith(acceptLanguage: string, cookie?: string) {
  return signedUpClient(
    app,
    {},
    { 'accept-language': acceptLanguage, ...(cookie ? { cookie } : {}) },
  );
}

/** What is stored of a person's language: the chosen one, and their last sign-in's. */
async function storedOf(userId: string) {
  const found = await db.query<{ language: string | null; sign_in_language: string }>(
    'SELECT language, sign_in_language FROM users WHERE id = $1',
    [userId],
  );
  return found.rows[0];
}

function languageCookieOf(response: LightMyRequestResponse) {
  return response.cookies.find((each) => each.name === languageCookieName);
}

async function logInWith(
  body: { email: string; password: string },
  headers: Record<string, string> = {},
) {
  const response = await new TestClient(app).request('POST', '/api/v1/auth/login', body, headers);
  expect(response.statusCode).toBe(200);
  return response;
}

describe('the language of a person', () => {
  it('is not chosen at sign-up: the browser’s is remembered for their emails', async () => {
    const german = await signUpWith('de-AT,de;q=0.9,en;q=0.5');
    expect(german.user.language).toBeNull();
    expect(await storedOf(german.user.id)).toEqual({ language: null, sign_in_language: 'de' });
    expect(await storedLanguage(db, { userId: german.user.id })).toBe('de');
    const japanese = await signUpWith('fr-CH, ja;q=0.4');
    expect(await storedOf(japanese.user.id)).toEqual({ language: null, sign_in_language: 'ja' });
  });

  it('prefers the language cookie to the browser’s', async () => {
    const { user } = await signUpWith('de', `${languageCookieName}=ja`);
    expect(await storedOf(user.id)).toEqual({ language: null, sign_in_language: 'ja' });
  });

  it('is English for a garbled header or a language the operator has not enabled', async () => {
    for (const [header, cookie] of [
      ['ar-KW,ar;q=0.9'],
      [';;;q=2,@@'],
      ['xx', `${languageCookieName}=ar`],
    ]) {
      const { user } = await signUpWith(header ?? '', cookie);
      expect((await storedOf(user.id))?.sign_in_language).toBe('en');
    }
  });

  it('is adopted at sign-in once chosen: the browser gets its cookie', async () => {
    const { client, body } = await signUpWith('en');
    await client.request('PUT', '/api/v1/profile/language', { language: 'de' });
    // A fresh browser that asks for Japanese.
    const login = await logInWith(body, { 'accept-language': 'ja' });
    expect(login.json().user.language).toBe('de');
    expect(languageCookieOf(login)).toMatchObject({ value: 'de', path: '/' });
    // And over the browser's own cookie, which an earlier visitor may have left.
    const over = await logInWith(body, { cookie: `${languageCookieName}=ja` });
    expect(languageCookieOf(over)?.value).toBe('de');
  });

  it('is the browser’s at sign-in while none is chosen, and is remembered', async () => {
    const { user, body } = await signUpWith('de');
    const login = await logInWith(body, { 'accept-language': 'ja,en;q=0.5' });
    expect(login.json().user.language).toBeNull();
    expect(languageCookieOf(login)).toBeUndefined();
    expect(await storedOf(user.id)).toEqual({ language: null, sign_in_language: 'ja' });
    expect(await storedLanguage(db, { email: body.email })).toBe('ja');
  });

  it('is adopted after the second factor, not before it', async () => {
    const { client, body } = await signUpWith('en');
    await client.request('PUT', '/api/v1/profile/language', { language: 'ja' });
    const setup = await client.post('/api/v1/profile/totp/setup', {
      currentPassword: strongPassword,
    });
    const { secret } = setup.json();
    const codeAt = (offsetSteps: number) =>
      new TOTP({ secret, digits: 6, period: 30 }).generate({
        timestamp: Date.now() + offsetSteps * 30_000,
      });
    expect((await client.post('/api/v1/profile/totp/enable', { code: codeAt(0) })).statusCode).toBe(
      200,
    );
    const password = await logInWith(body);
    expect(password.json().status).toBe('second_factor_required');
    expect(languageCookieOf(password)).toBeUndefined();
    const second = await new TestClient(app).post('/api/v1/auth/login/second-factor', {
      challengeToken: password.json().challengeToken,
      // Enrolment spent the current step's code; the next step's is valid within the window.
      code: codeAt(1),
    });
    expect(second.json().status).toBe('signed_in');
    expect(languageCookieOf(second)?.value).toBe('ja');
  });

  it('is changed on the profile, stored, and remembered in a cookie the web can read', async () => {
    const { client } = await signedUpClient(app);
    const response = await client.request('PUT', '/api/v1/profile/language', { language: 'ja' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ language: 'ja' });
    const cookie = response.cookies.find((each) => each.name === languageCookieName);
    expect(cookie).toMatchObject({ value: 'ja', path: '/', sameSite: 'Lax', maxAge: 400 * 86_400 });
    expect(cookie?.httpOnly).toBeFalsy();
    const me = (await client.get('/api/v1/auth/me')).json();
    expect(me.language).toBe('ja');
  });

  it('refuses a language the operator has not enabled, or none of the four', async () => {
    const { client } = await signedUpClient(app);
    for (const language of ['ar', 'fr', '', 'de'.repeat(500)]) {
      const response = await client.request('PUT', '/api/v1/profile/language', { language });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('validation_failed');
      expect(response.json().error.fields).toHaveProperty('language');
      expect(response.cookies.find((each) => each.name === languageCookieName)).toBeUndefined();
    }
    expect((await client.get('/api/v1/auth/me')).json().language).toBeNull();
  });

  it('is staff’s to choose too, and no visitor’s', async () => {
    const { client } = await staffClient(app, 'support');
    const response = await client.request('PUT', '/api/v1/profile/language', { language: 'de' });
    expect(response.statusCode).toBe(200);
    expect((await client.get('/api/v1/auth/me')).json().language).toBe('de');
    const visitor = await new TestClient(app).request('PUT', '/api/v1/profile/language', {
      language: 'de',
    });
    expect(visitor.statusCode).toBe(401);
  });

  it('lists the enabled languages in the site’s description', async () => {
    const site = (await new TestClient(app).get('/api/v1/public/site')).json();
    expect(site.languages).toEqual(['en', 'de', 'ja']);
    expect(site).not.toHaveProperty('terms');
  });
});
