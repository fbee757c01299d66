import { languageCookieName } from '@coffer/contracts/languages';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.ts';
import { newSignup, TestClient } from '../../test/http.ts';
import { requestBodySizeMaxBytes } from '../app.ts';
import { translateText } from './i18n.ts';

let app: FastifyInstance;
useTestApp(
  (opened) => {
    app = opened.app;
  },
  { env: { COFFER_LANGUAGES: 'en,de,ja' } },
);

let attempt = 0;

async function login(headers: Record<string, string>) {
  attempt += 1;
  const client = new TestClient(app);
  return client.request(
    'POST',
    '/api/v1/auth/login',
    // A new address each time: failed sign-ins to one address lock it.
    { email: `nobody${attempt}@example.com`, password: 'Not-The-Password-1' },
    headers,
  );
}

describe('error messages in the request’s language', () => {
  it('keeps the code and writes the message in the browser’s language', async () => {
    const german = (await login({ 'accept-language': 'de-DE,de;q=0.9' })).json();
    expect(german.error).toEqual({
      code: 'invalid_credentials',
      message: 'E-Mail-Adresse oder Passwort ist falsch',
    });
    const japanese = (await login({ 'accept-language': 'ja' })).json();
    expect(japanese.error.message).toBe('メールアドレスまたはパスワードが正しくありません');
  });

  it('follows the chosen cookie over the browser', async () => {
    const answer = await login({ 'accept-language': 'de', cookie: `${languageCookieName}=ja` });
    expect(answer.json().error.message).toBe('メールアドレスまたはパスワードが正しくありません');
  });

  it('is English for an unknown, garbled or disabled language, without an error', async () => {
    for (const header of ['fr-FR', '%%%;q=;;', 'ar-KW', 'x'.repeat(10_000)]) {
      const answer = await login({ 'accept-language': header });
      expect(answer.statusCode).toBe(401);
      expect(answer.json().error.message).toBe('Invalid email or password');
    }
  });

  it('translates the contracts’ field messages, with their values', async () => {
    const client = new TestClient(app);
    const answer = await client.request(
      'POST',
      '/api/v1/auth/signup',
      { ...newSignup(), username: 'x'.repeat(500), country: 'ZZ' },
      { 'accept-language': 'de' },
    );
    expect(answer.statusCode).toBe(400);
    const { error } = answer.json();
    expect(error.code).toBe('validation_failed');
    expect(error.fields.username).toMatch(/^Verwenden Sie höchstens \d+ Zeichen$/);
  });

  it('writes zod’s own messages in the language too', async () => {
    const client = new TestClient(app);
    const answer = await client.request(
      'POST',
      '/api/v1/auth/login',
      { email: 'someone@example.com' },
      { 'accept-language': 'ja' },
    );
    expect(answer.statusCode).toBe(400);
    const { error } = answer.json();
    expect(error.code).toBe('validation_failed');
    expect(error.fields.password).toBe(
      '無効な入力: stringが期待されましたが、undefinedが入力されました',
    );
    expect(error.message).toBe(error.fields.password);
  });

  it('answers the router’s own refusals in the language too, before cookies are read', async () => {
    const client = new TestClient(app);
    const answer = await client.request('GET', '/api/v1/transfers/%E0%A4%A', undefined, {
      'accept-language': 'de',
      cookie: `${languageCookieName}=ja`,
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error).toEqual({
      code: 'validation_failed',
      message: 'Die Adresse dieser Anfrage ist ungültig.',
    });
  });
});

describe('Fastify’s own refusals in the request’s language', () => {
  /** A raw body to the sign-in, as a client that writes its own requests sends it. */
  async function signInWithBody(payload: string, contentType: string) {
    const answer = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': contentType, 'accept-language': 'de-DE,de;q=0.9' },
      payload,
    });
    return { status: answer.statusCode, error: answer.json().error };
  }

  it('keeps each code and writes its message in German', async () => {
    const cases = [
      {
        payload: '{"email": "someone@example.com",',
        contentType: 'application/json',
        status: 400,
        code: 'validation_failed',
        english: 'The body is not valid JSON.',
      },
      {
        payload: '',
        contentType: 'application/json',
        status: 400,
        code: 'validation_failed',
        english: 'The body is empty, but the request says it is JSON.',
      },
      {
        payload: '<login/>',
        contentType: 'application/xml',
        status: 415,
        code: 'unsupported_media_type',
        english: 'Send the request body as JSON.',
      },
      {
        payload: JSON.stringify({ email: 'x'.repeat(requestBodySizeMaxBytes), password: 'x' }),
        contentType: 'application/json',
        status: 413,
        code: 'payload_too_large',
        english: 'That is more data than this request accepts.',
      },
    ];
    for (const { payload, contentType, status, code, english } of cases) {
      const answer = await signInWithBody(payload, contentType);
      expect(answer, english).toEqual({
        status,
        error: { code, message: translateText('de', english) },
      });
      // Translated, not Fastify's or our English.
      expect(answer.error.message, english).not.toBe(english);
    }
  });

  it('says a body shorter than its Content-Length is not as long as it says', async () => {
    const answer = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: {
        'content-type': 'application/json',
        'content-length': '500',
        'accept-language': 'ja',
      },
      payload: '{}',
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error).toEqual({
      code: 'malformed_request',
      message: translateText('ja', 'The body is not as long as the request says it is.'),
    });
  });
});
