// What the browser journeys share: the sandbox's demo accounts, logging in through the
// login page, calling the API with a page's session, reading amounts, and screenshots.
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { screenshot } from './browser.ts';
import type { MailSink } from './mail-sink.ts';
import { waitUntil } from './wait.ts';

export type Account = { email: string; password: string };

// The sandbox's published demo accounts (apps/api/src/features/sandbox/seed.ts).
export const demo = {
  admin: { email: 'admin@coffer.test', password: 'Sandbox-Admin-2026!', username: 'Demo Admin' },
  checker: {
    email: 'checker@coffer.test',
    password: 'Sandbox-Checker-2026!',
    username: 'Demo Checker',
  },
  support: {
    email: 'support@coffer.test',
    password: 'Sandbox-Support-2026!',
    username: 'Demo Support',
  },
  alice: {
    email: 'alice@coffer.test',
    password: 'Sandbox-Customer-2026!',
    username: 'Alice Morgan',
    // What statements and staff pages print (the seed's legal names).
    legalName: 'Alice Jane Morgan',
  },
  bruno: {
    email: 'bruno@coffer.test',
    password: 'Sandbox-Customer-2026!',
    username: 'Bruno Keller',
    legalName: 'Bruno Maximilian Keller',
  },
  yuki: { email: 'yuki@coffer.test', password: 'Sandbox-Customer-2026!', username: 'Yuki Tanaka' },
} as const;

export function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}

export async function toast(page: Page, text: string): Promise<void> {
  await page.getByRole('alert').filter({ hasText: text }).first().waitFor();
}

/** Logs in through the login page and waits until it has sent the person on. */
export async function logIn(page: Page, account: Account): Promise<void> {
  await page.goto('/signin');
  await page.getByRole('heading', { level: 1, name: 'Login' }).waitFor();
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await toast(page, 'Login Successful!');
  await waitUntil('the login page sends the person on', async () => pathOf(page) !== '/signin');
}

/**
 * Waits until the app has taken over a page the server rendered (the dashboard, docs/
 * decisions/011): until then it looks the same, but its buttons do nothing.
 */
export async function waitForAppTakeover(page: Page): Promise<void> {
  await page.waitForFunction(
    () => !document.getElementById('root')?.hasAttribute('data-server-rendered'),
  );
}

/** Opens the dashboard as a new page load, and waits until the app has taken it over. */
export async function openDashboard(page: Page): Promise<void> {
  await page.goto('/dashboard');
  await waitForAppTakeover(page);
}

/** A JSON API call with the page's session, as the page itself would make it. */
export async function callApi(
  page: Page,
  baseUrl: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  /** A money route's key, as the page's forms send one per confirmation. */
  options: { idempotencyKey?: string } = {},
): Promise<{ status: number; json: unknown }> {
  const key = options.idempotencyKey;
  const response = await page.request.fetch(path, {
    method,
    // A browser sends Origin with every unsafe request, and the API insists on it.
    headers: {
      origin: baseUrl,
      'content-type': 'application/json',
      ...(key === undefined ? {} : { 'idempotency-key': key }),
    },
    ...(body === undefined ? {} : { data: JSON.stringify(body) }),
  });
  return { status: response.status(), json: await response.json().catch(() => null) };
}

/** Signs `account` in through the API in the page's context, as the login form would. */
export async function logInByApi(page: Page, baseUrl: string, account: Account): Promise<void> {
  const login = await callApi(page, baseUrl, 'POST', '/api/v1/auth/login', account);
  expect(login.status).toBe(200);
}

/**
 * Saves a payee for the signed-in customer of `page` as the payees page does: the step-up
 * challenge, the code from the email, the add. Answers the payee's id.
 */
export async function savePayeeByApi(
  page: Page,
  context: { baseUrl: string; mailSink: MailSink; email: string },
  payee: { nickname: string; target: object },
): Promise<string> {
  const askedAt = new Date();
  const challenge = await callApi(page, context.baseUrl, 'POST', '/api/v1/step-up/challenges', {
    purpose: 'payee',
    target: payee.target,
  });
  expect(challenge.status).toBe(200);
  const codeMail = await context.mailSink.waitForMail({
    to: context.email,
    subject: 'verification code',
    after: askedAt,
  });
  const stepUpCode = /\b(\d{6})\b/.exec(codeMail.text)?.[1] ?? '';
  const added = await callApi(
    page,
    context.baseUrl,
    'POST',
    '/api/v1/payees',
    { ...payee, stepUpCode },
    { idempotencyKey: `e2e-payee-${Date.now()}-${Math.random()}` },
  );
  expect(added.status).toBe(201);
  return (added.json as { id: string }).id;
}

/** An admin sets a customer's level, giving the reason staff must give. */
export async function setLevel(
  admin: Page,
  baseUrl: string,
  userId: string,
  change: { level: number; reason: string },
): Promise<void> {
  const answer = await callApi(
    admin,
    baseUrl,
    'POST',
    `/api/v1/admin/users/${userId}/level`,
    change,
  );
  expect(answer.status).toBe(200);
}

/** The id of a customer, looked up by email through a staff member's page. */
export async function userIdByEmail(staff: Page, baseUrl: string, email: string): Promise<string> {
  const found = await callApi(
    staff,
    baseUrl,
    'GET',
    `/api/v1/admin/users?search=${encodeURIComponent(email)}`,
  );
  const id = (found.json as { items: { id: string }[] }).items[0]?.id ?? '';
  expect(id).not.toBe('');
  return id;
}

/** An amount as shown ("USD 1,529.80", "$1,504.80") in minor units, read from its digits. */
export function minorUnitsOf(text: string): bigint {
  const digits = text.replace(/[^\d]/g, '');
  expect(digits, `an amount in "${text}"`).not.toBe('');
  return BigInt(digits);
}

/** A full-page screenshot from the top, into e2e/artifacts. */
export async function snapshot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

export async function hasNoHorizontalScroll(page: Page): Promise<boolean> {
  return page.evaluate(
    () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
  );
}

/** Both widths of one screen, desktop 1280 and phone 390, and no sideways scroll on the phone. */
export async function snapshotBothWidths(page: Page, name: string): Promise<void> {
  const original = page.viewportSize();
  await page.setViewportSize({ width: 1280, height: 800 });
  await snapshot(page, `${name}-desktop`);
  await page.setViewportSize({ width: 390, height: 844 });
  // The side menu slides away when the width drops to a phone's; shot after it has gone.
  await page.waitForTimeout(600);
  await snapshot(page, `${name}-phone`);
  expect(await hasNoHorizontalScroll(page), `${name} at 390px`).toBe(true);
  if (original) await page.setViewportSize(original);
}

/** The dashboard's Available Balance card. */
export function balanceRegion(page: Page): Locator {
  return page.getByRole('region', { name: 'Available Balance' });
}

/** The shown balance in minor units ("$1,504.80" → 150480), or null while it is hidden. */
export async function shownBalanceMinor(page: Page): Promise<bigint | null> {
  const text = (await balanceRegion(page).textContent()) ?? '';
  const amount = /^Available Balance(\D*[\d,.]+)/.exec(text)?.[1];
  return amount === undefined ? null : BigInt(amount.replace(/\D/g, ''));
}

/** The words modules (apps/web/page-words.ts) `page` asks for from now on, by name: `main.de`. */
export function wordsAskedBy(page: Page): string[] {
  const asked: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    const words = /^\/assets\/words\/(.+)-[0-9a-f]+\.js$/.exec(pathname)?.[1];
    if (words) asked.push(words);
  });
  return asked;
}
