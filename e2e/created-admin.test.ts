// Sign-ins that must do one thing before anything else. An admin made by `npm run
// create-admin`: the password it was given has been seen by someone else, so the app asks
// for a new one, says why, and opens the back office once it is changed. A customer who
// accepted an earlier version of the operator's terms: the app shows the new ones and opens
// once they are accepted.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { errorCodes } from '@coffer/contracts/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newCustomer } from './support/accounts.ts';
import { unexpectedProblems } from './support/console.ts';
import { addCustomerWhoAcceptedEarlierTerms } from './support/earlier-terms.ts';
import { logIn, pathOf, snapshot, snapshotBothWidths, toast } from './support/pages.ts';
import { repoRoot } from './support/server.ts';
import { useServerAndBrowser } from './support/suite.ts';
import { waitUntil } from './support/wait.ts';

const journeyTimeoutMs = 120_000;
const admin = { email: 'first-admin@bank.example', password: 'Granite-Harbor-Willow-63' };
const ownPassword = 'Quiet-Meadow-Compass-97';
const returningCustomer = newCustomer();

// The command runs on the data directory before the server opens it (PGlite has one opener).
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'coffer-e2e-created-admin-'));
beforeAll(async () => {
  const created = spawnSync(
    'npm',
    ['run', '--silent', 'create-admin', '--', '--email', admin.email],
    {
      cwd: repoRoot,
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        COFFER_DATA_DIR: dataDir,
        COFFER_ADMIN_PASSWORD: admin.password,
      },
    },
  );
  if (created.status !== 0) throw new Error(`create-admin failed: ${created.stderr}`);
  await addCustomerWhoAcceptedEarlierTerms(dataDir, returningCustomer, 'sandbox-sample-0');
}, journeyTimeoutMs);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const suite = useServerAndBrowser({ env: { COFFER_DATA_DIR: dataDir } });

describe('an admin made by create-admin', () => {
  it(
    'is sent to choose a new password at first sign-in, told why, and reaches the back office once it is changed',
    async () => {
      const { page, problems } = await suite.openPage();
      await logIn(page, admin);
      await waitUntil(
        'the app asks for a new password',
        async () => pathOf(page) === '/change-password',
      );
      await page.getByRole('heading', { level: 1, name: 'Choose a new password' }).waitFor();
      await page.getByText(errorCodes.password_change_required.message).waitFor();

      // Any other page sends them back here: the API would answer it nothing.
      await page.goto('/admin');
      await waitUntil(
        'the back office sends them back',
        async () => pathOf(page) === '/change-password',
      );
      await snapshot(page, 'created-admin-must-change-password');

      const card = page.getByRole('region', { name: 'Change password' });
      await card.getByLabel('Current password').fill(admin.password);
      await card.getByLabel('New password', { exact: true }).fill(ownPassword);
      await card.getByLabel('Confirm new password').fill(ownPassword);
      await card.getByRole('button', { name: 'Change password' }).click();
      await toast(page, 'Your password has been changed');
      await waitUntil('the back office opens', async () => pathOf(page) === '/admin');
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    journeyTimeoutMs,
  );
});

describe('a customer who accepted an earlier version of the terms', () => {
  it(
    'is shown the new terms at sign-in, cannot reach the app around them, and reaches the dashboard once they are accepted',
    async () => {
      const { page, problems } = await suite.openPage();
      await logIn(page, returningCustomer);
      await waitUntil('the app shows the new terms', async () => pathOf(page) === '/accept-terms');
      await page
        .getByRole('heading', { level: 1, name: 'Updated terms and privacy notice' })
        .waitFor();
      await page.getByText(errorCodes.terms_acceptance_required.message).waitFor();
      // The sandbox's sample, open to read: nothing to unfold first.
      await page
        .getByRole('region', { name: 'Terms of service' })
        .getByText('SAMPLE TERMS OF SERVICE')
        .waitFor();
      await page
        .getByRole('region', { name: 'Privacy notice' })
        .getByText('What we keep')
        .waitFor();
      await page.getByText('Version sandbox-sample-1').waitFor();

      // Any other page sends them back here: the API would answer it nothing.
      await page.goto('/dashboard');
      await waitUntil(
        'the dashboard sends them back',
        async () => pathOf(page) === '/accept-terms',
      );
      await page.getByRole('button', { name: 'I accept the terms and privacy notice' }).waitFor();
      await snapshotBothWidths(page, 'accept-terms');

      await page.getByRole('button', { name: 'I accept the terms and privacy notice' }).click();
      await page
        .getByRole('heading', { level: 1, name: `Hello, ${returningCustomer.username}` })
        .waitFor();
      expect(pathOf(page)).toBe('/dashboard');
      // The acceptance is on their account's activity, as everything that changes it.
      await page.goto('/profile');
      await page.getByText('Terms and privacy notice accepted').waitFor();
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    journeyTimeoutMs,
  );
});
