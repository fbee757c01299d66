import { randomBytes } from 'node:crypto';
import { termsResponseSchema } from '@coffer/contracts/terms';
import type { BrowserContext } from 'playwright-core';
import { expect } from 'vitest';

export type TestCustomer = {
  username: string;
  email: string;
  phone: string;
  password: string;
  country: string;
};

/** A customer nobody else in this run uses, with a password zxcvbn rates as strong. */
export function newCustomer(overrides: Partial<TestCustomer> = {}): TestCustomer {
  const suffix = randomBytes(4).toString('hex');
  return {
    username: `Tester ${suffix}`,
    email: `tester-${suffix}@example.com`,
    phone: '+14155552671',
    password: `Quiet-harbour-${suffix}-lantern`,
    country: 'US',
    ...overrides,
  };
}

/**
 * Signs a customer up through the API inside the browser context, so the context holds
 * their session cookie: for tests about signed-in pages rather than about signing up. They
 * accept the terms the server publishes (the sandbox's sample, or the site file's).
 */
export async function signUpInContext(
  context: BrowserContext,
  baseUrl: string,
  customer: TestCustomer = newCustomer(),
): Promise<TestCustomer> {
  const published = await context.request.get('/api/v1/public/terms');
  const { terms } = termsResponseSchema.parse(await published.json());
  const response = await context.request.post('/api/v1/auth/signup', {
    data: terms ? { ...customer, acceptedTermsVersion: terms.version } : customer,
    // A browser sends Origin with every unsafe request, and the API insists on it.
    headers: { origin: baseUrl },
  });
  expect(response.status(), await response.text()).toBe(201);
  return customer;
}
