import { languageCookieName } from '@coffer/contracts/languages';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/app.ts';
import { openTestDatabase } from '../../../test/database.ts';
import { newSignup, signedUpClient, staffClient, TestClient } from '../../../test/http.ts';
import type { Database } from '../../db/client.ts';

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

async function signUpWith(acceptLanguage: string, cookie?: string) {
  const client = new TestClient(app);
  const response = await client.request(
    'POST',
    '/api/v1/auth/signup',
    { ...newSignup(), ...(app.terms ? { acceptedTermsVersion: app.terms.version } : {}) },
    { 'accept-language': acceptLanguage, ...(cookie ? { cookie } : {}) },
  );
  expect(response.statusCode).toBe(201);
  return response.json().user as { language: string };
}

describe('the language of a person', () => {
  it('is the browser’s language at sign-up, and the session answer says it', async () => {
    expect((await signUpWith('de-AT,de;q=0.9,en;q=0.5')).language).toBe('de');
    expect((await signUpWith('fr-CH, ja;q=0.4')).language).toBe('ja');
  });

  it('prefers the chosen language cookie to the browser’s', async () => {
    expect((await signUpWith('de', `${languageCookieName}=ja`)).language).toBe('ja');
  });

  it('is English for a garbled header or a language the operator has not enabled', async () => {
    expect((await signUpWith('ar-KW,ar;q=0.9')).language).toBe('en');
    expect((await signUpWith(';;;q=2,@@')).language).toBe('en');
    expect((await signUpWith('de', `${languageCookieName}=ar`)).language).toBe('de');
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
    expect((await client.get('/api/v1/auth/me')).json().language).toBe('en');
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
