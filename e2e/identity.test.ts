// The identity journey end to end, through the browser and a real SMTP server: sign up,
// verify the email, log out and in, turn on two-factor, log in with a code, reset the
// password from the emailed link.
import { acceptTermsMessage } from '@coffer/contracts/terms';
import { Secret, TOTP } from 'otpauth';
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { newCustomer } from './support/accounts.ts';
import { newContext, watchConsole } from './support/browser.ts';
import { unexpectedProblems } from './support/console.ts';
import { linkIn } from './support/mail-sink.ts';
import { snapshotBothWidths } from './support/pages.ts';
import { fullSite } from './support/site-file.ts';
import { useServerAndBrowser } from './support/suite.ts';

const journeyTimeoutMs = 180_000;
const totpPeriodSeconds = 30;

let context: BrowserContext | undefined;

const suite = useServerAndBrowser({ hasMailSink: true, site: fullSite });

afterEach(async () => {
  await context?.close();
  context = undefined;
});

function pathOf(url: string): string {
  return new URL(url).pathname;
}

async function toast(page: Page, text: string): Promise<void> {
  await page.getByRole('alert').filter({ hasText: text }).first().waitFor();
}

async function logOutFromUserMenu(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await page.getByRole('heading', { level: 1, name: 'Login' }).waitFor();
  expect(new URL(page.url()).pathname).toBe('/signin');
  expect(new URL(page.url()).search).toBe('');
}

async function fillLogin(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
}

/**
 * A code the server has not seen yet. It refuses a code whose time step was already used
 * (no replays), so after enrolment this waits for the next 30-second step if need be.
 */
async function freshCode(
  totp: TOTP,
  lastUsedCounter: number,
): Promise<{ code: string; counter: number }> {
  while (totp.counter() <= lastUsedCounter) {
    await new Promise((resolve) => setTimeout(resolve, totp.remaining() + 50));
  }
  return { code: totp.generate(), counter: totp.counter() };
}

describe('identity', () => {
  it(
    'signs up, verifies the email, turns on two-factor and resets the password',
    async () => {
      context = await newContext(suite.browser, {
        baseUrl: suite.server.baseUrl,
        viewport: 'desktop',
      });
      const page = await context.newPage();
      const problems = watchConsole(page);
      const customer = newCustomer();
      const newPassword = `${customer.password}-renewed`;

      // A visitor who opens an account page is sent to the login page first.
      await page.goto('/profile');
      await page.getByRole('heading', { level: 1, name: 'Login' }).waitFor();
      expect(page.url()).toBe(`${suite.server.baseUrl}/signin?returnTo=%2Fprofile`);

      // Sign up.
      await page.getByRole('link', { name: 'Sign Up' }).click();
      await page.getByRole('heading', { level: 1, name: 'Create account' }).waitFor();
      // The browser's own select (ADR 056), its choice made: the country and its currency.
      const country = page.getByRole('combobox', { name: 'Country' });
      expect(await country.inputValue()).toBe('US');
      expect(await country.locator('option:checked').textContent()).toBe('United States (USD)');
      await page.getByRole('button', { name: 'Register' }).click();
      await page.getByText('Please fill in all fields').first().waitFor();
      // The operator's terms and privacy notice, from the site file, must be accepted too.
      const acceptTerms = page.getByLabel(
        'I have read and accept the terms of service and the privacy notice',
      );
      await page.getByText(acceptTermsMessage).waitFor();
      expect(await acceptTerms.getAttribute('aria-invalid')).toBe('true');
      await page.locator('summary', { hasText: 'Terms of service' }).click();
      await page.getByText('Harbour Test terms of service, from the site file.').waitFor();
      await page.locator('summary', { hasText: 'Privacy notice' }).click();
      await page.getByText(fullSite.terms.privacyNotice).waitFor();
      await page.getByText(`Version ${fullSite.terms.version}`).waitFor();

      await page.getByLabel('Username').fill(customer.username);
      await page.getByLabel('Email').fill(customer.email);
      await page.getByLabel('Phone number').fill(customer.phone);
      await page.getByLabel('Password', { exact: true }).fill('password1');
      await page.getByText(/Strength: (Very weak|Weak)/).waitFor();
      await page.getByLabel('Password', { exact: true }).fill(customer.password);
      await page.getByText(/Strength: (Strong|Very strong)/).waitFor();
      await acceptTerms.check();
      expect(await page.getByText(acceptTermsMessage).count()).toBe(0);
      await snapshotBothWidths(page, 'signup-terms');
      await page.getByRole('button', { name: 'Register' }).click();

      await toast(page, `Welcome, ${customer.username}`);
      await toast(page, 'Thank you for registering');
      await page.getByRole('heading', { level: 1, name: `Hello, ${customer.username}` }).waitFor();
      // Sign-up came from /profile, but a new customer starts on the dashboard.
      expect(pathOf(page.url())).toBe('/dashboard');
      const banner = page.getByRole('alert', { name: 'Email not verified' });
      await banner.getByText('Please verify your email address.').waitFor();

      // Verify the email from the link in the mail.
      const verification = await suite.mailSink.waitForMail({
        to: customer.email,
        subject: /email/i,
      });
      const verifyLink = linkIn(verification, '/verify-email');
      expect(verifyLink.origin).toBe(suite.server.baseUrl);
      await page.goto(verifyLink.href);
      await page.getByText(`${customer.email}`, { exact: true }).waitFor();
      await page.getByText('is confirmed as the email address of your account').waitFor();
      await page.getByRole('link', { name: 'Go to your dashboard' }).click();
      await page.getByRole('heading', { level: 1, name: `Hello, ${customer.username}` }).waitFor();
      expect(await banner.count()).toBe(0);

      // Log out, then log in again and come back to the page asked for.
      await logOutFromUserMenu(page);
      await page.goto('/profile');
      await page.getByRole('heading', { level: 1, name: 'Login' }).waitFor();
      await fillLogin(page, customer.email, customer.password);
      await toast(page, 'Login Successful!');
      await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
      expect(pathOf(page.url())).toBe('/profile');

      // Turn on two-factor with a code computed from the manual setup key.
      await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
      const dialog = page.getByRole('dialog', { name: 'Set up two-factor authentication' });
      await dialog.getByLabel('Current password').fill(customer.password);
      await dialog.getByRole('button', { name: 'Continue' }).click();
      await dialog
        .getByRole('img', { name: 'QR code to scan with your authenticator app' })
        .waitFor();
      const setupKey = await dialog.getByLabel('Setup key').inputValue();
      const totp = new TOTP({
        secret: Secret.fromBase32(setupKey),
        digits: 6,
        period: totpPeriodSeconds,
        algorithm: 'SHA1',
      });
      await dialog.getByLabel('6-digit code').fill('000000');
      await dialog.getByRole('button', { name: 'Turn on' }).click();
      await dialog.getByText('Wrong verification code. Please try again.').waitFor();
      const enrolment = await freshCode(totp, -1);
      await dialog.getByLabel('6-digit code').fill(enrolment.code);
      await dialog.getByRole('button', { name: 'Turn on' }).click();
      const recoveryCodeList = dialog.getByRole('list', { name: 'Recovery codes' });
      await recoveryCodeList.waitFor();
      const recoveryCodes = await recoveryCodeList.getByRole('listitem').allTextContents();
      expect(recoveryCodes).toHaveLength(10);
      await dialog.getByRole('button', { name: 'I have saved my codes' }).click();
      await dialog.waitFor({ state: 'hidden' });
      const twoFactor = page.getByRole('region', { name: 'Two-factor authentication' });
      await twoFactor.getByText('On', { exact: true }).waitFor();

      // Log in with the password and a code from the authenticator.
      await logOutFromUserMenu(page);
      await fillLogin(page, customer.email, customer.password);
      await page.getByRole('heading', { level: 1, name: 'Two-step verification' }).waitFor();
      const login = await freshCode(totp, enrolment.counter);
      await page.getByLabel('Verification code').fill(login.code);
      await page.getByRole('button', { name: 'Verify' }).click();
      await toast(page, 'Login Successful!');
      await page.getByRole('heading', { level: 1, name: `Hello, ${customer.username}` }).waitFor();

      // Forgot password: the emailed link leads to a form that sets a new one.
      await logOutFromUserMenu(page);
      await page.getByRole('link', { name: 'Forgot Password?' }).click();
      await page.getByRole('heading', { level: 1, name: 'Forgot password' }).waitFor();
      const resetRequestedAt = new Date();
      await page.getByLabel('Email').fill(customer.email);
      await page.getByRole('button', { name: 'Reset Password' }).click();
      await toast(page, 'Password reset email sent! Check your inbox.');
      const resetMail = await suite.mailSink.waitForMail({
        to: customer.email,
        subject: /password/i,
        after: resetRequestedAt,
      });
      await page.goto(linkIn(resetMail, '/reset-password').href);
      await page.getByRole('heading', { level: 1, name: 'Choose a new password' }).waitFor();
      await page.getByLabel('New password', { exact: true }).fill(newPassword);
      await page.getByLabel('Confirm new password').fill(`${newPassword}x`);
      await page.getByRole('button', { name: 'Set new password' }).click();
      await page.getByText('Passwords do not match').waitFor();
      await page.getByLabel('Confirm new password').fill(newPassword);
      await page.getByRole('button', { name: 'Set new password' }).click();
      await page.getByRole('heading', { level: 1, name: 'Login' }).waitFor();
      expect(pathOf(page.url())).toBe('/signin');

      // The old password no longer works; the new one does (with a recovery code this time).
      await fillLogin(page, customer.email, customer.password);
      await page.getByRole('alert').filter({ hasText: 'Invalid email or password' }).waitFor();
      await fillLogin(page, customer.email, newPassword);
      await page.getByRole('heading', { level: 1, name: 'Two-step verification' }).waitFor();
      await page.getByLabel('Verification code').fill(recoveryCodes[0] ?? '');
      await page.getByRole('button', { name: 'Verify' }).click();
      await toast(page, 'Login Successful!');
      await page.getByRole('heading', { level: 1, name: `Hello, ${customer.username}` }).waitFor();

      expect(
        unexpectedProblems(problems, [
          { path: '/api/v1/auth/login', status: 401 },
          { path: '/api/v1/profile/totp/enable', status: 400 },
        ]),
      ).toEqual([]);
    },
    journeyTimeoutMs,
  );

  it(
    'sends a signed-in user away from the login and sign-up pages, and a customer from /admin to the 404 page',
    async () => {
      context = await newContext(suite.browser, {
        baseUrl: suite.server.baseUrl,
        viewport: 'desktop',
      });
      const customer = newCustomer();
      const signup = await context.request.post('/api/v1/auth/signup', {
        data: { ...customer, acceptedTermsVersion: fullSite.terms.version },
        headers: { origin: suite.server.baseUrl },
      });
      expect(signup.status()).toBe(201);
      const page = await context.newPage();
      const problems = watchConsole(page);
      const greeting = page.getByRole('heading', { level: 1, name: `Hello, ${customer.username}` });

      for (const path of ['/signin', '/SignIn', '/signup', '/SignUp', '/forgot-password']) {
        await page.goto(path);
        await greeting.waitFor();
        expect(pathOf(page.url()), path).toBe('/dashboard');
      }
      await page.goto('/Forget-password');
      await greeting.waitFor();

      for (const path of ['/admin', '/admin/users/123']) {
        await page.goto(path);
        await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
      }
      expect(unexpectedProblems(problems)).toEqual([]);
    },
    journeyTimeoutMs,
  );
});
