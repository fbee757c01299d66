import type { ErrorCode } from '@coffer/contracts/errors';
import type { FastifyRequest } from 'fastify';
import { AppError } from './app-error.ts';
import { assert } from './assert.ts';
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

/**
 * Per signed-in customer, whatever their address: people behind one office address do
 * not share it, and a customer gains nothing from changing address. For customer routes
 * only (the session is checked before the limit). Counters live in the process too.
 */
export function perCustomerLimit(
  max: number | ((request: FastifyRequest) => number),
  timeWindowMs: number,
) {
  return {
    max,
    timeWindow: timeWindowMs,
    keyGenerator: (request: FastifyRequest) => {
      assert(request.session, 'a per-customer limit on a route open to visitors');
      return `customer:${request.session.userId}`;
    },
    errorResponseBuilder: () => new AppError('rate_limited'),
  };
}

const oneMinuteMs = 60 * 1000;
const fifteenMinutesMs = 15 * 60 * 1000;
const oneHourMs = 60 * 60 * 1000;

/**
 * Requests per minute a customer may make to each money route (Quick Pay, payouts, bill
 * payments): far more than anyone confirms by hand, too few for a script to hammer.
 * COFFER_MONEY_REQUESTS_PER_MINUTE changes it.
 */
export const moneyRequestsPerMinuteDefault = 30;

const perCustomerMoneyLimit = perCustomerLimit(
  (request) => request.server.config.moneyRequestsPerMinute,
  oneMinuteMs,
);

export const rateLimits = {
  signup: perAddressLimit(10, oneHourMs),
  forgotPassword: perAddressLimit(5, fifteenMinutesMs),
  emailLink: perAddressLimit(20, fifteenMinutesMs),
  resendVerification: perAddressLimit(5, fifteenMinutesMs),
  reauthentication: perAddressLimit(20, fifteenMinutesMs, 'too_many_attempts'),
  // Each challenge may send an email: per customer, a few more than anyone asks for.
  stepUpChallenge: perCustomerLimit(10, fifteenMinutesMs),
  quickPay: perCustomerMoneyLimit,
  payout: perCustomerMoneyLimit,
  billPayment: perCustomerMoneyLimit,
  // Each upload writes up to 10 MB to disk: plenty for a person retrying, too few to fill it.
  kycUpload: perCustomerLimit(20, oneHourMs),
  kycSubmission: perCustomerLimit(10, oneHourMs),
  // Disputes and support messages reach staff (and a reply emails the customer): more
  // than anyone writes by hand, too few to flood the queue.
  dispute: perCustomerLimit(10, fifteenMinutesMs),
  supportMessage: perCustomerLimit(10, oneMinuteMs),
  // A card request holds the fee and reaches staff; a simulated purchase moves money.
  cardRequest: perCustomerLimit(10, fifteenMinutesMs),
  simulatedPurchase: perCustomerMoneyLimit,
  // A loan application reaches staff: more tries than a person correcting a form makes.
  loanApplication: perCustomerLimit(30, fifteenMinutesMs),
  loanRepayment: perCustomerMoneyLimit,
  // Staff moving a customer's money (disbursing) or emailing them (eligibility).
  loanStaffAction: perCustomerMoneyLimit,
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
  /**
   * Quick Pay recipient look-ups per customer (not per address: one customer gains nothing
   * from many addresses): every preview, and every Quick Pay refused for its recipient.
   * Enough for a person, too few to enumerate customers.
   */
  recipientLookup: { name: 'recipient-lookup', max: 30, windowMs: fifteenMinutesMs },
} satisfies Record<string, FailureLimit>;
