// COFFER_STAFF_TWO_FACTOR=1: an admin without two-factor who signs in is sent to the set-up
// on their profile with the reason, whichever back-office page they open (the server-
// rendered ones too), and reaches the back office once it is on; then it stays on.
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { seriousAxeViolations } from './support/axe.ts';
import { unexpectedProblems } from './support/console.ts';
import { callApi, demo, logIn, pathOf, snapshot, snapshotBothWidths } from './support/pages.ts';
import { useServerAndBrowser } from './support/suite.ts';

const journeyTimeoutMs = 180_000;
const setUpMessage = 'Set up two-factor authentication before using the back office.';
const keptOnMessage = 'Staff accounts here must keep two-factor authentication on.';

const suite = useServerAndBrowser({ env: { COFFER_STAFF_TWO_FACTOR: '1' } });

describe('two-factor required of staff', () => {
  it(
    'sends an admin without two-factor to set it up, then lets them into the back office',
    async () => {
      const { page, problems } = await suite.openPage();
      const notice = page.getByRole('alert').filter({ hasText: setUpMessage });

      // Signing in leads to the back office, which sends them on to the set-up.
      await logIn(page, demo.admin);
      await notice.waitFor();
      expect(pathOf(page)).toBe('/profile');
      await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
      // Their menu offers no back office yet.
      const menu = page.getByRole('navigation', { name: 'Main' });
      await menu.getByRole('link', { name: 'Profile' }).waitFor();
      expect(await menu.getByRole('link', { name: 'Audit log' }).count()).toBe(0);

      // A back-office page the server renders, opened as a new page load, does the same.
      await page.goto('/admin/audit');
      await notice.waitFor();
      await page.goto('/admin');
      await notice.waitFor();
      expect(pathOf(page)).toBe('/profile');
      const refused = await callApi(page, suite.server.baseUrl, 'GET', '/api/v1/admin/queues');
      expect(refused.status).toBe(403);
      expect(await seriousAxeViolations(page, 'two-factor set-up')).toEqual([]);
      await snapshotBothWidths(page, 'staff-two-factor-setup');

      // Turn it on, as any user does.
      await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
      const dialog = page.getByRole('dialog', { name: 'Set up two-factor authentication' });
      await dialog.getByLabel('Current password').fill(demo.admin.password);
      await dialog.getByRole('button', { name: 'Continue' }).click();
      const setupKey = await dialog.getByLabel('Setup key').inputValue();
      const totp = new TOTP({ secret: Secret.fromBase32(setupKey), digits: 6, period: 30 });
      await dialog.getByLabel('6-digit code').fill(totp.generate());
      await dialog.getByRole('button', { name: 'Turn on' }).click();
      await dialog.getByRole('list', { name: 'Recovery codes' }).waitFor();
      await dialog.getByRole('button', { name: 'I have saved my codes' }).click();
      await dialog.waitFor({ state: 'hidden' });

      // The same session is let in: back to the page they asked for.
      expect(await notice.count()).toBe(0);
      await page
        .getByRole('alert')
        .filter({ hasText: 'Two-factor authentication is on' })
        .waitFor();
      await snapshot(page, 'staff-two-factor-on-desktop');
      await page.getByRole('link', { name: 'Go to the back office' }).click();
      await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
      expect(pathOf(page)).toBe('/admin');
      await menu.getByRole('link', { name: 'Audit log' }).waitFor();
      const allowed = await callApi(page, suite.server.baseUrl, 'GET', '/api/v1/admin/queues');
      expect(allowed.status).toBe(200);

      // Their profile says why it stays on instead of offering to turn it off.
      await menu.getByRole('link', { name: 'Profile' }).click();
      const card = page.getByRole('region', { name: 'Two-factor authentication' });
      await card.getByText(keptOnMessage).waitFor();
      expect(await card.getByRole('button').count()).toBe(0);
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    journeyTimeoutMs,
  );
});
