// The operator's terms and privacy notice (issue #31 item 8): accepted at sign-up with the
// version and time recorded; a new version closes the customer's routes until accepted.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { acceptTermsMessage, termsChangedMessage } from '@coffer/contracts/terms';
import { describe, expect, it } from 'vitest';
import { type OpenedTestApp, useTestApp } from '../../../test/app.ts';
import { createCustomer } from '../../../test/customers.ts';
import { newSignup, staffClient, TestClient } from '../../../test/http.ts';

const terms = {
  version: '2026-11',
  termsOfService: 'You keep one wallet with us.\n\nFees are shown before you confirm.',
  privacyNotice: 'We keep your name, email and phone to run your account.',
};
const siteDirectory = mkdtempSync(path.join(os.tmpdir(), 'coffer-terms-'));
const siteFile = path.join(siteDirectory, 'site.json');
writeFileSync(siteFile, JSON.stringify({ institutionName: 'Harbour Credit Union', terms }));

let opened: OpenedTestApp;
useTestApp(
  (ready) => {
    opened = ready;
  },
  { env: { COFFER_SITE_FILE: siteFile } },
);

async function termsColumns(userId: string) {
  const found = await opened.db.query<{ terms_version: string | null; terms_accepted_at: Date }>(
    'SELECT terms_version, terms_accepted_at FROM users WHERE id = $1',
    [userId],
  );
  return found.rows[0];
}

describe('terms at sign-up', () => {
  it('publishes the terms from the site file, and not with the site every page loads', async () => {
    const client = new TestClient(opened.app);
    expect((await client.get('/api/v1/public/terms')).json()).toEqual({ terms });
    const site = (await client.get('/api/v1/public/site')).json();
    expect(site.institutionName).toBe('Harbour Credit Union');
    expect(site).not.toHaveProperty('terms');
  });

  it('refuses a sign-up that did not accept them, beside the checkbox, and opens no account', async () => {
    const client = new TestClient(opened.app);
    const body = newSignup();
    const refused = await client.post('/api/v1/auth/signup', body);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      error: { code: 'validation_failed', fields: { acceptedTermsVersion: acceptTermsMessage } },
    });
    const old = await client.post('/api/v1/auth/signup', {
      ...body,
      acceptedTermsVersion: '2025-01',
    });
    expect(old.json()).toMatchObject({
      error: { fields: { acceptedTermsVersion: termsChangedMessage } },
    });
    const found = await opened.db.query('SELECT 1 FROM users WHERE email = $1', [body.email]);
    expect(found.rows).toEqual([]);
  });

  it('records the version accepted and when, in the audit log, and staff see it on the customer page', async () => {
    const before = new Date();
    const customer = await createCustomer(opened.app);
    const stored = await termsColumns(customer.user.id);
    expect(stored?.terms_version).toBe('2026-11');
    expect(stored?.terms_accepted_at.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
    expect((await customer.client.get('/api/v1/auth/me')).json()).toMatchObject({
      mustAcceptTerms: false,
    });
    expect((await customer.client.get('/api/v1/wallet')).statusCode).toBe(200);

    const activity = (await customer.client.get('/api/v1/profile/activity')).json();
    expect(activity.items.map((item: { action: string }) => item.action)).toContain(
      'terms_accepted',
    );
    const { client: admin } = await staffClient(opened.app, 'admin');
    const detail = (await admin.get(`/api/v1/admin/users/${customer.user.id}`)).json();
    expect(detail.termsAcceptance).toEqual({
      version: '2026-11',
      acceptedAt: stored?.terms_accepted_at.toISOString(),
    });
  });
});

describe('a new version of the terms', () => {
  it('closes every customer route but the session and the acceptance until the customer accepts it', async () => {
    const customer = await createCustomer(opened.app);
    // What the operator's new site file does to everyone who accepted the version before.
    await opened.db.query("UPDATE users SET terms_version = '2026-01' WHERE id = $1", [
      customer.user.id,
    ]);
    for (const url of ['/api/v1/wallet', '/api/v1/profile', '/api/v1/notifications']) {
      const refused = await customer.client.get(url);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json(), url).toMatchObject({ error: { code: 'terms_acceptance_required' } });
    }
    expect((await customer.client.get('/api/v1/auth/me')).json()).toMatchObject({
      mustAcceptTerms: true,
    });
    expect((await customer.client.get('/api/v1/auth/session')).json()).toMatchObject({
      user: { mustAcceptTerms: true },
    });

    const stale = await customer.client.post('/api/v1/terms/acceptance', { version: '2026-01' });
    expect(stale.statusCode).toBe(400);
    expect(stale.json()).toMatchObject({ error: { fields: { version: termsChangedMessage } } });
    expect((await customer.client.get('/api/v1/wallet')).statusCode).toBe(403);

    const accepted = await customer.client.post('/api/v1/terms/acceptance', {
      version: '2026-11',
    });
    expect(accepted.statusCode).toBe(204);
    expect((await customer.client.get('/api/v1/wallet')).statusCode).toBe(200);
    expect((await termsColumns(customer.user.id))?.terms_version).toBe('2026-11');

    // Accepting again (a second tab) is answered the same and recorded once.
    expect(
      (await customer.client.post('/api/v1/terms/acceptance', { version: '2026-11' })).statusCode,
    ).toBe(204);
    const events = await opened.db.query<{ before: unknown; after: unknown }>(
      "SELECT before, after FROM audit_events WHERE subject_user_id = $1 AND action = 'terms_accepted' ORDER BY id",
      [customer.user.id],
    );
    expect(events.rows).toEqual([
      { before: null, after: { termsVersion: '2026-11' } },
      { before: { termsVersion: '2026-01' }, after: { termsVersion: '2026-11' } },
    ]);
  });

  it('asks nothing of staff, whose routes stay open', async () => {
    const { client } = await staffClient(opened.app, 'admin');
    expect((await client.get('/api/v1/auth/me')).json()).toMatchObject({ mustAcceptTerms: false });
    expect((await client.get('/api/v1/admin/users?limit=5')).statusCode).toBe(200);
    expect((await client.post('/api/v1/terms/acceptance', { version: '2026-11' })).statusCode).toBe(
      403,
    );
  });

  it('refuses an acceptance from a visitor', async () => {
    const visitor = new TestClient(opened.app);
    const refused = await visitor.post('/api/v1/terms/acceptance', { version: '2026-11' });
    expect(refused.statusCode).toBe(401);
  });
});
