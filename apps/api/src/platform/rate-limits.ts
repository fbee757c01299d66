import type { ErrorCode } from '@coffer/contracts/errors';
import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod/mini';
import type { Config } from '../config.ts';
import type { Queryable } from '../db/client.ts';
import { AppError } from './app-error.ts';
import { assert } from './assert.ts';
import { attemptWindowMsMax, type FailureLimit, spendAttempt } from './attempt-counters.ts';

/** What @fastify/rate-limit hands a route's store: its settings, with the route. */
const routeSettingsSchema = z.object({
  routeInfo: z.object({ method: z.union([z.string(), z.array(z.string())]), url: z.string() }),
});

/**
 * @fastify/rate-limit's counters in PostgreSQL (`attempt_counters`, the table of the
 * failure limits), so that every API instance counts against one limit: each request
 * spends one attempt in one statement (`spendAttempt`), before the route runs. Each route
 * has its own counts (its `child` store), as with the plugin's in-process store.
 */
export function sharedRateLimitStore(db: Queryable) {
  return class SharedRateLimitStore implements FastifyRateLimitStore {
    readonly #route: string;

    constructor(_pluginSettings: unknown, route = 'any route') {
      this.#route = route;
    }

    incr(
      key: string,
      answer: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindowMs: number,
      max: number,
    ): void {
      const limit = { name: `rate-limit ${this.#route}`, max, windowMs: timeWindowMs };
      spendAttempt(db, limit, key).then(
        // A refusal does not read the window's end back: the whole window bounds it.
        (spent) =>
          answer(
            null,
            spent
              ? { current: spent.attemptCount, ttl: spent.windowLeftMs }
              : { current: max + 1, ttl: timeWindowMs },
          ),
        (error: unknown) => answer(error instanceof Error ? error : new Error(String(error))),
      );
    }

    // The plugin's types call the argument the route's options; it passes its settings.
    child(routeSettings: object): FastifyRateLimitStore {
      const { method, url } = routeSettingsSchema.parse(routeSettings).routeInfo;
      return new SharedRateLimitStore(null, `${[method].flat().join(',')} ${url}`);
    }
  };
}

/**
 * Per-client-address limits for a route (`config.rateLimit`). The address is the client's
 * behind a trusted proxy (COFFER_TRUST_PROXY). Counted in PostgreSQL: every API instance
 * shares them.
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

/** A limit per signed-in user on one route (`config.customerLimit`). */
export type CustomerLimit = { max: number | ((config: Config) => number); windowMs: number };

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Requests each signed-in user may make to this route in a window, spent in the
     * statement that reads their session (platform/access.ts): no round trip of its own.
     */
    customerLimit?: CustomerLimit;
  }
}

/**
 * Per signed-in customer, whatever their address: people behind one office address do
 * not share it, and a customer gains nothing from changing address. For signed-in routes
 * only (a visitor has no session to count against). Counted in PostgreSQL too.
 */
export function perCustomerLimit(max: CustomerLimit['max'], windowMs: number): CustomerLimit {
  return { max, windowMs };
}

/** The matched route's per-customer limit as attempt-counters counts it; null without one. */
export function customerLimitOf(request: FastifyRequest): FailureLimit | null {
  const limit = request.is404 ? undefined : request.routeOptions.config.customerLimit;
  if (!limit) return null;
  assert(limit.windowMs <= attemptWindowMsMax, 'a window longer than the purge keeps');
  return {
    // Each route its own count, as @fastify/rate-limit keeps them.
    name: `rate-limit ${request.method} ${request.routeOptions.url}`,
    max: typeof limit.max === 'number' ? limit.max : limit.max(request.server.config),
    windowMs: limit.windowMs,
  };
}

const oneMinuteMs = 60 * 1000;
const fifteenMinutesMs = 15 * 60 * 1000;
const oneHourMs = 60 * 60 * 1000;

const perCustomerMoneyLimit = perCustomerLimit(
  (config) => config.moneyRequestsPerMinute,
  oneMinuteMs,
);

/** Per client address (`config.rateLimit`, @fastify/rate-limit with the shared store). */
export const rateLimits = {
  signup: perAddressLimit(10, oneHourMs),
  forgotPassword: perAddressLimit(5, fifteenMinutesMs),
  emailLink: perAddressLimit(20, fifteenMinutesMs),
  resendVerification: perAddressLimit(5, fifteenMinutesMs),
  reauthentication: perAddressLimit(20, fifteenMinutesMs, 'too_many_attempts'),
  // Each asks the server to keep a passkey challenge: a signed-out visitor's sign-in
  // options and a password sign-in's second factor (ADR 046).
  passkeyOptions: perAddressLimit(30, fifteenMinutesMs),
};

/** Per signed-in user (`config.customerLimit`). */
export const customerLimits = {
  // Quotes and their accepts (issue #33): a person re-quotes every 30 seconds at most by
  // hand; enough for a page left open, too few to hammer the rates or the quotes table.
  exchangeQuote: perCustomerLimit(120, oneMinuteMs),
  // Each challenge may send an email: per customer, a few more than anyone asks for.
  stepUpChallenge: perCustomerLimit(10, fifteenMinutesMs),
  quickPay: perCustomerMoneyLimit,
  payout: perCustomerMoneyLimit,
  billPayment: perCustomerMoneyLimit,
  // Each add asks for a step-up code and sends a security email: more than anyone saves
  // by hand in an hour, too few to flood the inbox or the table.
  payeeAdd: perCustomerLimit(20, oneHourMs),
  // Creating, editing, pausing and cancelling schedules: more than anyone does by hand.
  scheduleChange: perCustomerLimit(30, fifteenMinutesMs),
  // Each bulk file is read whole (up to 32 MB) and checked line by line: a person fixing a
  // file uploads it a few times, not hundreds.
  bulkPaymentUpload: perCustomerLimit(30, oneHourMs),
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
  /** Passkey answers refused per address: a sign-in's, a second factor's or a new passkey's. */
  passkey: { name: 'passkey', max: 20, windowMs: fifteenMinutesMs },
  /**
   * Quick Pay recipient look-ups per customer (not per address: one customer gains nothing
   * from many addresses): every preview, and every Quick Pay refused for its recipient.
   * Enough for a person, too few to enumerate customers.
   */
  recipientLookup: { name: 'recipient-lookup', max: 30, windowMs: fifteenMinutesMs },
} satisfies Record<string, FailureLimit>;
