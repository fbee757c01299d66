// Passkeys end to end (issue #34 item 2, ADR 046), with Chromium's virtual authenticator
// over the DevTools protocol standing in for a phone's or laptop's: add a passkey on the
// profile, sign out, sign in with it and no password, then confirm a Quick Pay above the
// step-up threshold with it instead of a code.
import type { CDPSession, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signUpInContext } from './support/accounts.ts';
import { unexpectedProblems } from './support/console.ts';
import { demo, logIn, pathOf, toast } from './support/pages.ts';
import { useServerAndBrowser } from './support/suite.ts';
import { waitUntil } from './support/wait.ts';

const journeyTimeoutMs = 180_000;

// WebAuthn needs a domain name (localhost is one a browser trusts without https). The
// step-up threshold is lowered so a small payment from Alice's demo balance needs one.
const suite = useServerAndBrowser({
  publicHost: 'localhost',
  env: { COFFER_LIMITS: JSON.stringify({ USD: { stepUpThreshold: '5.00' } }) },
});

/** A platform authenticator with resident keys that verifies its user (a fingerprint). */
async function addVirtualAuthenticator(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return cdp;
}

describe('passkeys', () => {
  it(
    'adds a passkey, signs in with it alone and confirms a payment above the threshold with it',
    async () => {
      // A USD customer for Alice to pay (the other demo customers hold EUR and JPY).
      const { context: recipientContext } = await suite.openPage();
      const recipient = await signUpInContext(recipientContext, suite.server.baseUrl);
      const recipientName = recipient.username.replace(/(\S)\S*/g, '$1***');

      const { page, problems } = await suite.openPage();
      await addVirtualAuthenticator(page);
      await logIn(page, demo.alice);

      await page.goto('/profile');
      const card = page.getByRole('region', { name: 'Passkeys' });
      await card.getByText('No passkeys yet').waitFor();
      await card.getByRole('button', { name: 'Add a passkey' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add a passkey' });
      await dialog.getByLabel('Name').fill('Test laptop');
      await dialog.getByLabel('Current password').fill(demo.alice.password);
      await dialog.getByRole('button', { name: 'Add passkey' }).click();
      await toast(page, 'Passkey "Test laptop" added');
      await card.getByRole('cell', { name: 'Test laptop', exact: true }).waitFor();
      await card.getByRole('cell', { name: 'Never', exact: true }).waitFor();

      await page.locator('#main-content').getByRole('button', { name: 'Logout' }).click();
      await waitUntil('the sign-out leaves the profile', async () => pathOf(page) !== '/profile');
      await page.goto('/signin');
      await page.getByRole('heading', { level: 1, name: 'Login' }).waitFor();
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await toast(page, 'Login Successful!');
      await waitUntil('the sign-in sends Alice on', async () => pathOf(page) !== '/signin');

      await page.goto('/transfer');
      await page.getByRole('heading', { level: 1, name: 'Transfer and withdraw' }).waitFor();
      await page.getByLabel('Recipient').fill(recipient.email);
      await page.getByLabel('Amount').focus();
      await page.getByText(`Sending to ${recipientName} (USD)`).waitFor();
      await page.getByLabel('Amount').fill('10.00');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('heading', { name: 'Confirm payment' }).waitFor();
      await page.getByLabel('Verification code').waitFor();
      await page.getByRole('button', { name: 'Use a passkey instead' }).click();
      await toast(page, `Sent $10.00 to ${recipientName}.`);

      // The profile shows the passkey used.
      await page.goto('/profile');
      await page
        .getByRole('region', { name: 'Passkeys' })
        .getByRole('cell', { name: 'Test laptop', exact: true })
        .waitFor();
      expect(await card.getByRole('cell', { name: 'Never', exact: true }).count()).toBe(0);
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    journeyTimeoutMs,
  );
});
