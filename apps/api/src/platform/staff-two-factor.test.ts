// COFFER_STAFF_TWO_FACTOR: where it is required (production's default), a support or admin
// member without an authenticator is refused every staff and admin route until they set
// one up, while what they need to set it up keeps working. Customers are never asked.
import type { FastifyInstance } from 'fastify';
import { TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/app.ts';
import { openTestDatabase } from '../../test/database.ts';
import { signedUpClient, staffClient, strongPassword, type TestClient } from '../../test/http.ts';
import { loadConfig } from '../config.ts';
import type { Database } from '../db/client.ts';

const setUpMessage = 'Set up two-factor authentication before using the back office.';

let db: Database;
let required: FastifyInstance;
let optional: FastifyInstance;

beforeAll(async () => {
  db = await openTestDatabase();
  required = await buildTestApp(db, { COFFER_STAFF_TWO_FACTOR: '1' });
  optional = await buildTestApp(db, { COFFER_STAFF_TWO_FACTOR: '0' });
  await Promise.all([required.ready(), optional.ready()]);
});
afterAll(async () => {
  await required?.close();
  await optional?.close();
  await db?.close();
});

/** Turns two-factor on; returns the recovery codes, any of which turns it off again. */
async function enableTotp(client: TestClient): Promise<string[]> {
  const setup = await client.post('/api/v1/profile/totp/setup', {
    currentPassword: strongPassword,
  });
  expect(setup.statusCode, setup.body).toBe(200);
  const code = new TOTP({ secret: setup.json().secret, digits: 6, period: 30 }).generate();
  const enabled = await client.post('/api/v1/profile/totp/enable', { code });
  expect(enabled.statusCode, enabled.body).toBe(200);
  return enabled.json().recoveryCodes;
}

describe('COFFER_STAFF_TWO_FACTOR', () => {
  it('is required outside the sandbox, whatever NODE_ENV says, and optional in it, unless set', () => {
    const outsideSandbox = {
      COFFER_SANDBOX: '0',
      COFFER_SECRET_KEY: 'a-secret-key-of-this-installation-and-no-other',
      SMTP_URL: 'smtps://mail.example.org',
    };
    const production = {
      ...outsideSandbox,
      NODE_ENV: 'production',
      COFFER_PUBLIC_URL: 'https://bank.example.org',
    };
    expect(loadConfig(production).isStaffTwoFactorRequired).toBe(true);
    expect(loadConfig(outsideSandbox).isStaffTwoFactorRequired).toBe(true);
    expect(
      loadConfig({ ...production, COFFER_STAFF_TWO_FACTOR: '0' }).isStaffTwoFactorRequired,
    ).toBe(false);
    expect(loadConfig({}).isStaffTwoFactorRequired).toBe(false);
    expect(loadConfig({ COFFER_STAFF_TWO_FACTOR: '1' }).isStaffTwoFactorRequired).toBe(true);
    expect(() => loadConfig({ COFFER_STAFF_TWO_FACTOR: 'sometimes' })).toThrow(
      /COFFER_STAFF_TWO_FACTOR: /,
    );
  });

  it('refuses staff without two-factor every staff and admin route, until they set it up', async () => {
    for (const role of ['support', 'admin'] as const) {
      const { client } = await staffClient(required, role);
      const staffRoutes = ['/api/v1/admin/queues', '/api/v1/admin/users'];
      if (role === 'admin') staffRoutes.push('/api/v1/admin/ledger-health');
      // The back office's live stream too (refused before it opens, so it can be asked here).
      for (const url of [...staffRoutes, '/api/v1/admin/events']) {
        const refused = await client.get(url);
        expect(refused.statusCode, `${role} ${url}`).toBe(403);
        expect(refused.json(), `${role} ${url}`).toMatchObject({
          error: { code: 'staff_two_factor_required', message: setUpMessage },
        });
      }

      // What they need to set it up (and to leave) keeps working, and says what is missing.
      const session = await client.get('/api/v1/auth/session');
      expect(session.json().user).toMatchObject({ hasTotp: false, isTwoFactorRequired: true });
      expect((await client.get('/api/v1/profile')).statusCode).toBe(200);
      await enableTotp(client);

      // The same session, signed in before two-factor was on, is let in now.
      for (const url of staffRoutes) {
        expect((await client.get(url)).statusCode, `${role} ${url}`).toBe(200);
      }
      const after = await client.get('/api/v1/auth/session');
      expect(after.json().user).toMatchObject({ hasTotp: true, isTwoFactorRequired: true });
      expect((await client.post('/api/v1/auth/logout')).statusCode).toBe(204);
    }
  });

  it('refuses staff turning their own two-factor off, and keeps it on', async () => {
    for (const role of ['support', 'admin'] as const) {
      const { client } = await staffClient(required, role);
      const [recoveryCode] = await enableTotp(client);

      // A right code does not help: the rule is the installation's, not the code's.
      const refused = await client.post('/api/v1/profile/totp/disable', { code: recoveryCode });
      expect(refused.statusCode, role).toBe(403);
      expect(refused.json(), role).toMatchObject({
        error: {
          code: 'staff_two_factor_stays_on',
          message: 'Staff accounts here must keep two-factor authentication on.',
        },
      });
      expect((await client.get('/api/v1/profile')).json()).toMatchObject({ hasTotp: true });
      expect((await client.get('/api/v1/admin/queues')).statusCode, role).toBe(200);
    }
  });

  it('asks nothing of customers', async () => {
    const { client } = await signedUpClient(required);
    expect((await client.get('/api/v1/wallet')).statusCode).toBe(200);
    const session = await client.get('/api/v1/auth/session');
    expect(session.json().user).toMatchObject({ hasTotp: false, isTwoFactorRequired: false });
    // Staff routes still do not exist for them.
    expect((await client.get('/api/v1/admin/queues')).statusCode).toBe(404);
    // And they may turn their own two-factor off again.
    const [recoveryCode] = await enableTotp(client);
    const disabled = await client.post('/api/v1/profile/totp/disable', { code: recoveryCode });
    expect(disabled.statusCode, disabled.body).toBe(204);
  });

  it('lets staff without two-factor in when it is optional', async () => {
    const { client } = await staffClient(optional, 'admin');
    expect((await client.get('/api/v1/admin/queues')).statusCode).toBe(200);
    expect((await client.get('/api/v1/admin/users')).statusCode).toBe(200);
    const session = await client.get('/api/v1/auth/session');
    expect(session.json().user).toMatchObject({ hasTotp: false, isTwoFactorRequired: false });
    const [recoveryCode] = await enableTotp(client);
    const disabled = await client.post('/api/v1/profile/totp/disable', { code: recoveryCode });
    expect(disabled.statusCode, disabled.body).toBe(204);
  });
});
