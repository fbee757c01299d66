// Password and second-factor guesses in parallel: each attempt is counted before it is
// checked, so concurrency buys no extra guesses. True concurrency needs PostgreSQL.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { signedUpClient, strongPassword, TestClient } from '../../../test/http.ts';
import type { Database } from '../../db/client.ts';
import { loginFailuresMax } from './login-throttle.ts';

let db: Database;
let app: FastifyInstance;

useTestApp(
  (opened) => {
    ({ app, db } = opened);
  },
  { poolSize: 30 },
);

/** Counts answers by status and error code; a 5xx (a deadlock, a bug) fails the test. */
function outcomes(responses: LightMyRequestResponse[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const response of responses) {
    expect(response.statusCode, response.body).toBeLessThan(500);
    const key = response.statusCode === 200 ? response.json().status : response.json().error.code;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

const rounds = 3;

describe('login under concurrency on PostgreSQL', () => {
  it('checks at most four of eight wrong passwords sent at once after one failure', async () => {
    for (let round = 0; round < rounds; round += 1) {
      const { body } = await signedUpClient(app);
      const login = (password: string) =>
        new TestClient(app).post('/api/v1/auth/login', { email: body.email, password });
      expect((await login('wrong-first')).statusCode).toBe(401);

      const responses = await Promise.all(
        Array.from({ length: 8 }, (_, index) => login(`wrong-${index}`)),
      );

      const counts = outcomes(responses);
      expect(counts.invalid_credentials).toBeLessThanOrEqual(loginFailuresMax - 1);
      expect((counts.invalid_credentials ?? 0) + (counts.too_many_attempts ?? 0)).toBe(8);
      const refused = responses.find((response) => response.statusCode === 429);
      expect(refused?.json().error.message).toBe('Too many attempts. Please try again later.');
      const rightPassword = await login(body.password);
      expect(rightPassword.statusCode).toBe(429);
      expect(rightPassword.json().error.code).toBe('too_many_attempts');
    }
  });

  it('checks at most five second-factor codes sent at once for one sign-in', async () => {
    for (let round = 0; round < rounds; round += 1) {
      const { client, body } = await signedUpClient(app);
      const setup = await client.post('/api/v1/profile/totp/setup', {
        currentPassword: strongPassword,
      });
      const totp = new TOTP({ secret: setup.json().secret, digits: 6, period: 30 });
      const codeAt = (offsetSteps: number) =>
        totp.generate({ timestamp: Date.now() + offsetSteps * 30_000 });
      await client.post('/api/v1/profile/totp/enable', { code: codeAt(0) });
      const { challengeToken } = (
        await new TestClient(app).post('/api/v1/auth/login', {
          email: body.email,
          password: body.password,
        })
      ).json();
      const validCodes = new Set([-1, 0, 1, 2].map(codeAt));
      const wrongCodes: string[] = [];
      for (let guess = 100_000; wrongCodes.length < 12; guess += 7919) {
        if (!validCodes.has(String(guess))) wrongCodes.push(String(guess));
      }
      const codes = [...wrongCodes.slice(0, 6), codeAt(1), ...wrongCodes.slice(6)];

      const responses = await Promise.all(
        codes.map((code) =>
          new TestClient(app).post('/api/v1/auth/login/second-factor', { challengeToken, code }),
        ),
      );

      const counts = outcomes(responses);
      expect(counts.signed_in ?? 0).toBeLessThanOrEqual(1);
      expect((counts.signed_in ?? 0) + (counts.wrong_code ?? 0)).toBeLessThanOrEqual(5);
      const challenge = await db.query<{ failed_attempts: number }>(
        'SELECT failed_attempts FROM login_challenges WHERE user_id = (SELECT id FROM users WHERE email = $1)',
        [body.email],
      );
      expect(challenge.rows[0]?.failed_attempts).toBeLessThanOrEqual(5);
    }
  });
});
