// The profile's forms end to end (they share useContractForm): what the person sees after
// a save, and where a refusal is shown.
import { errorCodes } from '@coffer/contracts/errors';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newCustomer, signUpInContext } from './support/accounts.ts';
import { newContext, viewports, watchConsole } from './support/browser.ts';
import { unexpectedProblems } from './support/console.ts';
import {
  hasNoHorizontalScroll,
  openDashboard,
  snapshot,
  toast,
  waitForAppTakeover,
} from './support/pages.ts';
import { useServerAndBrowser } from './support/suite.ts';

const journeyTimeoutMs = 120_000;

const suite = useServerAndBrowser();

async function openProfile(viewport: keyof typeof viewports) {
  const context = suite.closeAfterTest(
    await newContext(suite.browser, { baseUrl: suite.server.baseUrl, viewport }),
  );
  const customer = await signUpInContext(context, suite.server.baseUrl, newCustomer());
  const page = await context.newPage();
  const problems = watchConsole(page);
  await page.goto('/profile');
  // The server paints the profile (ADR 027); keys go to it once the app has taken it over.
  await waitForAppTakeover(page);
  await page.getByRole('heading', { level: 2, name: 'Change password' }).waitFor();
  return { page, problems, customer };
}

describe('profile forms', () => {
  for (const viewport of Object.keys(viewports) as (keyof typeof viewports)[]) {
    it(
      `saves a new username, refuses a wrong password beside its field, and changes the password (${viewport})`,
      async () => {
        const { page, problems, customer } = await openProfile(viewport);

        await page.getByRole('button', { name: 'Edit Username' }).click();
        const rename = page.getByRole('dialog', { name: 'Edit Username' });
        await rename.getByLabel('Username').fill(`${customer.username} Renamed`);
        await rename.getByRole('button', { name: 'Save' }).click();
        await toast(page, 'Your username has been updated.');
        await rename.waitFor({ state: 'detached' });

        await page.getByRole('button', { name: 'Update Email' }).click();
        const email = page.getByRole('dialog', { name: 'Update Email' });
        await email.getByLabel('New email').fill(`moved-${customer.email}`);
        await email.getByLabel('Current password').fill('Not-The-Password-1');
        await email.getByRole('button', { name: 'Send link' }).click();
        // The refusal stands beside the password, which is emptied to be typed again.
        await email.getByText(errorCodes.wrong_password.message).waitFor();
        expect(await email.getByLabel('Current password').inputValue()).toBe('');
        await snapshot(page, `profile-forms-email-refused-${viewport}`);
        await email.getByRole('button', { name: 'Cancel' }).click();
        await email.waitFor({ state: 'detached' });

        const card = page.getByRole('region', { name: 'Change password' });
        await card.getByLabel('Current password').fill(customer.password);
        await card.getByLabel('New password', { exact: true }).fill('Quiet-Meadow-Lantern-77');
        await card.getByLabel('Confirm new password').fill('Quiet-Meadow-Lantern-77');
        await card.getByRole('button', { name: 'Change password' }).click();
        await toast(
          page,
          'Your password has been changed, and your other sessions are signed out.',
        );
        // The form starts afresh for the next change.
        expect(await card.getByLabel('Current password').inputValue()).toBe('');
        await snapshot(page, `profile-forms-password-changed-${viewport}`);

        expect(await hasNoHorizontalScroll(page)).toBe(true);
        // The wrong password, refused on purpose.
        expect(
          unexpectedProblems(problems, [{ path: '/api/v1/profile/email', status: 403 }]),
        ).toEqual([]);
      },
      journeyTimeoutMs,
    );
  }

  it(
    'gives the focus back to the button that opened a dialog, on its first opening too',
    async () => {
      const { page, problems } = await openProfile('desktop');
      await expectFocusBackAfterEscape(page, page.getByRole('button', { name: 'Edit Username' }));
      await expectFocusBackAfterEscape(
        page,
        page.getByRole('button', { name: 'Set up two-factor authentication' }),
      );
      await openDashboard(page);
      await expectFocusBackAfterEscape(page, page.getByRole('button', { name: 'Quick Pay' }));
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    journeyTimeoutMs,
  );
});

/**
 * Opens a dialog from the keyboard and closes it with Escape, twice: the first opening loads
 * the dialog's code, and each time the focus must come back to the button.
 */
async function expectFocusBackAfterEscape(page: Page, opener: Locator): Promise<void> {
  for (const opening of ['first', 'second']) {
    await opener.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await page.waitForFunction(() => document.activeElement?.closest('[role="dialog"]'));
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.waitForTimeout(50);
    const isFocused = await opener.evaluate((button) => button === document.activeElement);
    expect(isFocused, `${await opener.textContent()}, ${opening} opening`).toBe(true);
  }
}
