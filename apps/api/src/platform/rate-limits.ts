import type { ErrorCode } from '@coffer/contracts/errors';
import { AppError } from './app-error.ts';
import type { FailureLimit } from './attempt-counters.ts';

/**
 * Per-client-address limits for a route (`config.rateLimit`). The address is the client's
 * behind a trusted proxy (COFFER_TRUST_PROXY). Counters live in the process: with several
 * instances each counts its own share, which still bounds abuse.
 */
export function perAddressLimit(
  max: number,
  timeWindowMs: number,
  code: ErrorCode = 'rate_limited',
) {
  return {
    max,
    timeWindow: timeWindowMs,
    errorResponseBuilder: () => new AppError(code),
  };
}

const fifteenMinutesMs = 15 * 60 * 1000;
const oneHourMs = 60 * 60 * 1000;

export const rateLimits = {
  signup: perAddressLimit(10, oneHourMs),
  forgotPassword: perAddressLimit(5, fifteenMinutesMs),
  emailLink: perAddressLimit(20, fifteenMinutesMs),
  resendVerification: perAddressLimit(5, fifteenMinutesMs),
  reauthentication: perAddressLimit(20, fifteenMinutesMs, 'too_many_attempts'),
  stepUpChallenge: perAddressLimit(10, fifteenMinutesMs),
  // Quick Pay's recipient look-up: enough for a person, too few to enumerate customers.
  recipientPreview: perAddressLimit(30, fifteenMinutesMs),
};

/**
 * Failures per client address, counted in PostgreSQL before each attempt and given back
 * when it succeeds (attempt-counters.ts): signing in correctly never uses them up, and
 * every API instance shares the count. Each account has its own lock on top
 * (features/auth/login-throttle.ts), the main defence.
 */
export const failureLimits = {
  login: { name: 'login', max: 30, windowMs: fifteenMinutesMs },
  secondFactor: { name: 'second-factor', max: 20, windowMs: fifteenMinutesMs },
} satisfies Record<string, FailureLimit>;
