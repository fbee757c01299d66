// What the web app's unit tests of the server renders share.
import type { Me } from '@coffer/contracts/auth';

/** A signed-in customer, as the session answer gives one. */
export const customerMe: Me = {
  id: '0190a000-0000-7000-8000-000000000001',
  username: 'Alex',
  email: 'alex@example.com',
  isEmailVerified: true,
  role: 'customer',
  level: 1,
  hasTotp: false,
  isTwoFactorRequired: false,
  mustChangePassword: false,
  mustAcceptTerms: false,
  country: 'US',
  timeZone: 'UTC',
  language: 'en',
  currency: 'USD',
  frozenReason: null,
};
