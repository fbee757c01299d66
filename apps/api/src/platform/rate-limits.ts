import type { ErrorCode } from '@coffer/contracts/errors';
import { AppError } from './app-error.ts';

/**
 * Per-client-address limits for a route (`config.rateLimit`). Counters live in the
 * process: with several instances each counts its own share, which still bounds abuse.
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
  login: perAddressLimit(30, fifteenMinutesMs, 'too_many_attempts'),
  secondFactor: perAddressLimit(20, fifteenMinutesMs, 'too_many_attempts'),
  signup: perAddressLimit(10, oneHourMs),
  forgotPassword: perAddressLimit(5, fifteenMinutesMs),
  emailLink: perAddressLimit(20, fifteenMinutesMs),
  resendVerification: perAddressLimit(5, fifteenMinutesMs),
  reauthentication: perAddressLimit(20, fifteenMinutesMs, 'too_many_attempts'),
  stepUpChallenge: perAddressLimit(10, fifteenMinutesMs),
  // Quick Pay's recipient look-up: enough for a person, too few to enumerate customers.
  recipientPreview: perAddressLimit(30, fifteenMinutesMs),
};
