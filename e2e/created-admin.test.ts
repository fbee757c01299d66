// The first sign-in of an admin made by `npm run create-admin`: the password it was given
// has been seen by someone else, so the app asks for a new one before anything else, says
// why, and opens the back office once it is changed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { errorCodes } from '@coffer/contracts/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unexpectedProblems } from './support/console.ts';
import { logIn, pathOf, snapshot, toast } from './support/pages.ts';
import { repoRoot } from './support/server.ts';
import { useServerAndBrowser } from './support/suite.ts';
import { waitUntil } from './support/wait.ts';

const journeyTimeoutMs = 120_000;
const admin = { email: 'first-admin@bank.example', password: 'Granite-Harbor-Willow-63' };
const ownPassword = 'Quiet-Meadow-Compass-97';

// The command runs on the data directory before the server opens it (PGlite has one opener).
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'coffer-e2e-created-admin-'));
beforeAll(() => {
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
