import { type CurrencyCode, isCurrencyCode, minorDigits } from './currencies.ts';
import { MoneyParseError, minorUnitsSchema, parseAmount } from './money.ts';
import { z } from './zod.ts';

/** Account levels run from 1 to this (a check constraint on users.level says the same). */
export const accountLevelMax = 9;

/** The kinds of money out that count against a daily limit. */
export const moneyOutKinds = ['transfer', 'bill_payment', 'payout'] as const;
export type MoneyOutKind = (typeof moneyOutKinds)[number];

/**
 * A daily limit for levels 1, 2, and 3 and above, in that order. Null: the kind is not
 * allowed at that level.
 */
export type DailyLimitsByTier = readonly [bigint | null, bigint | null, bigint | null];

/**
 * One currency's limits and thresholds (PRODUCT.md section 5), every amount in that
 * currency's minor units. The operator's configuration decides them; the server is the
 * authority and the web shows what the API tells it.
 */
export type CurrencyLimits = {
  currency: CurrencyCode;
  /** Money out per UTC day and kind, by level. */
  dailyMinor: Readonly<Record<MoneyOutKind, DailyLimitsByTier>>;
  /** Quick Pay at or above this asks for a step-up code. */
  stepUpThresholdMinor: bigint;
  /** A staff deposit or adjustment above this waits for a second admin. */
  fourEyesThresholdMinor: bigint;
  /** One staff member's postings in a UTC day above this wait for a second admin too. */
  fourEyesDailyTotalMinor: bigint;
  /** Sandbox test money: the most one request may add. */
  testMoneyPerRequestMinor: bigint;
  /** Sandbox test money: the most one customer may add in a UTC day. */
  testMoneyDailyMinor: bigint;
  /** A virtual card's purchases per week (Monday 00:00 UTC to the next). */
  cardWeeklyLimitMinor: bigint;
};

/** The US dollar figures of PRODUCT.md section 5, in major units: the pattern of every default. */
const usdPatternMajor = {
  dailyMajor: {
    transfer: [500n, 5_000n, 25_000n],
    bill_payment: [500n, 5_000n, 25_000n],
    payout: [null, 5_000n, 25_000n],
  },
  stepUpThresholdMajor: 1_000n,
  fourEyesThresholdMajor: 10_000n,
  fourEyesDailyTotalMajor: 25_000n,
  testMoneyPerRequestMajor: 10_000n,
  testMoneyDailyMajor: 25_000n,
  cardWeeklyLimitMajor: 15_000n,
} as const;

/**
 * How many units of a currency stand in for one US dollar in the built-in defaults: a
 * round figure near the exchange rate, so that a default limit is of similar value in
 * every listed currency (JPY 75,000 where USD is 500.00), written as a fraction so that
 * KWD's 0.3 needs no float. Currencies not listed here have no default: see `limitsFor`.
 */
const defaultUnitsPerUsd: Readonly<Record<string, readonly [bigint, bigint]>> = {
  USD: [1n, 1n],
  EUR: [1n, 1n],
  GBP: [1n, 1n],
  CHF: [1n, 1n],
  CAD: [3n, 2n],
  AUD: [3n, 2n],
  NZD: [3n, 2n],
  SGD: [3n, 2n],
  JPY: [150n, 1n],
  CNY: [7n, 1n],
  HKD: [8n, 1n],
  INR: [80n, 1n],
  NGN: [1_500n, 1n],
  KES: [150n, 1n],
  GHS: [15n, 1n],
  ZAR: [20n, 1n],
  MXN: [20n, 1n],
  BRL: [5n, 1n],
  SEK: [10n, 1n],
  NOK: [10n, 1n],
  DKK: [7n, 1n],
  PLN: [4n, 1n],
  TRY: [40n, 1n],
  AED: [4n, 1n],
  SAR: [4n, 1n],
  KWD: [3n, 10n],
  BHD: [4n, 10n],
  OMR: [4n, 10n],
  PHP: [60n, 1n],
  KRW: [1_500n, 1n],
};

/** The currencies that have built-in default limits. */
export const currenciesWithDefaultLimits: readonly string[] = Object.keys(defaultUnitsPerUsd);

function scaledToMinor(amountMajor: bigint, currency: CurrencyCode): bigint {
  const [numerator, denominator] = defaultUnitsPerUsd[currency] ?? [1n, 1n];
  const scaledMajor = (amountMajor * numerator) / denominator;
  return scaledMajor * 10n ** BigInt(minorDigits(currency));
}

function scaledTiers(tiers: readonly (bigint | null)[], currency: CurrencyCode): DailyLimitsByTier {
  const [level1, level2, level3] = tiers.map((amountMajor) =>
    amountMajor === null ? null : scaledToMinor(amountMajor, currency),
  );
  return [level1 ?? null, level2 ?? null, level3 ?? null];
}

/** The built-in defaults for a listed currency, or null for any other. */
export function defaultLimitsFor(currency: CurrencyCode): CurrencyLimits | null {
  if (!(currency in defaultUnitsPerUsd)) return null;
  const pattern = usdPatternMajor;
  return {
    currency,
    dailyMinor: {
      transfer: scaledTiers(pattern.dailyMajor.transfer, currency),
      bill_payment: scaledTiers(pattern.dailyMajor.bill_payment, currency),
      payout: scaledTiers(pattern.dailyMajor.payout, currency),
    },
    stepUpThresholdMinor: scaledToMinor(pattern.stepUpThresholdMajor, currency),
    fourEyesThresholdMinor: scaledToMinor(pattern.fourEyesThresholdMajor, currency),
    fourEyesDailyTotalMinor: scaledToMinor(pattern.fourEyesDailyTotalMajor, currency),
    testMoneyPerRequestMinor: scaledToMinor(pattern.testMoneyPerRequestMajor, currency),
    testMoneyDailyMinor: scaledToMinor(pattern.testMoneyDailyMajor, currency),
    cardWeeklyLimitMinor: scaledToMinor(pattern.cardWeeklyLimitMajor, currency),
  };
}

/** A level's daily limit for a kind: levels above 3 have level 3's. */
export function dailyLimitMinor(
  limits: CurrencyLimits,
  level: number,
  kind: MoneyOutKind,
): bigint | null {
  const tier = Math.min(Math.max(level, 1), 3) - 1;
  return limits.dailyMinor[kind][tier] ?? null;
}

/** The lowest level at which a kind of money out is allowed at all in this currency. */
export function minimumLevelFor(limits: CurrencyLimits, kind: MoneyOutKind): number {
  const tier = limits.dailyMinor[kind].findIndex((limitMinor) => limitMinor !== null);
  return tier === -1 ? accountLevelMax + 1 : tier + 1;
}

/** The operator's limits per currency, with the built-in defaults under them. */
export type LimitsTable = {
  /** This currency's limits, or null when neither the operator nor the defaults have any. */
  limitsFor(currency: CurrencyCode): CurrencyLimits | null;
  /** The currencies the operator configured (for start-up messages). */
  readonly configuredCurrencies: readonly CurrencyCode[];
};

const tiersInputSchema = z.tuple([
  z.nullable(z.string()),
  z.nullable(z.string()),
  z.nullable(z.string()),
]);

/**
 * One currency's entry in `COFFER_LIMITS`: decimal amounts in that currency, every key
 * optional; what is missing comes from the built-in default. A currency without a default
 * must give every key.
 */
const currencyLimitsInputSchema = z.strictObject({
  daily: z.optional(
    z.strictObject({
      transfer: z.optional(tiersInputSchema),
      bill_payment: z.optional(tiersInputSchema),
      payout: z.optional(tiersInputSchema),
    }),
  ),
  stepUpThreshold: z.optional(z.string()),
  fourEyesThreshold: z.optional(z.string()),
  fourEyesDailyTotal: z.optional(z.string()),
  testMoneyPerRequest: z.optional(z.string()),
  testMoneyDaily: z.optional(z.string()),
  cardWeeklyLimit: z.optional(z.string()),
});

type CurrencyLimitsInput = z.infer<typeof currencyLimitsInputSchema>;

/** Thrown with a message naming the currency and key, for the configuration error. */
export class LimitsConfigError extends Error {
  override name = 'LimitsConfigError';
}

function parseLimitAmount(text: string, currency: CurrencyCode, key: string): bigint {
  try {
    const amountMinor = parseAmount(text, currency);
    if (amountMinor <= 0n) throw new MoneyParseError('must be above zero');
    return amountMinor;
  } catch (error) {
    if (!(error instanceof MoneyParseError)) throw error;
    throw new LimitsConfigError(`${currency}.${key}: ${error.message}`);
  }
}

function mergedLimits(currency: CurrencyCode, input: CurrencyLimitsInput): CurrencyLimits {
  const base = defaultLimitsFor(currency);
  const amount = (key: keyof Omit<CurrencyLimitsInput, 'daily'>, fallback?: bigint): bigint => {
    const text = input[key];
    if (text !== undefined) return parseLimitAmount(text, currency, key);
    if (fallback === undefined) {
      throw new LimitsConfigError(`${currency}.${key}: required (${currency} has no default)`);
    }
    return fallback;
  };
  const tiers = (kind: MoneyOutKind): DailyLimitsByTier => {
    const given = input.daily?.[kind];
    if (given === undefined) {
      if (!base) throw new LimitsConfigError(`${currency}.daily.${kind}: required`);
      return base.dailyMinor[kind];
    }
    const [level1, level2, level3] = given.map((text, index) =>
      text === null ? null : parseLimitAmount(text, currency, `daily.${kind}[${index}]`),
    );
    return [level1 ?? null, level2 ?? null, level3 ?? null];
  };
  return {
    currency,
    dailyMinor: {
      transfer: tiers('transfer'),
      bill_payment: tiers('bill_payment'),
      payout: tiers('payout'),
    },
    stepUpThresholdMinor: amount('stepUpThreshold', base?.stepUpThresholdMinor),
    fourEyesThresholdMinor: amount('fourEyesThreshold', base?.fourEyesThresholdMinor),
    fourEyesDailyTotalMinor: amount('fourEyesDailyTotal', base?.fourEyesDailyTotalMinor),
    testMoneyPerRequestMinor: amount('testMoneyPerRequest', base?.testMoneyPerRequestMinor),
    testMoneyDailyMinor: amount('testMoneyDaily', base?.testMoneyDailyMinor),
    cardWeeklyLimitMinor: amount('cardWeeklyLimit', base?.cardWeeklyLimitMinor),
  };
}

/**
 * The limits table from `COFFER_LIMITS` (JSON: currency code → partial entry, amounts as
 * decimal strings in that currency, e.g. `{"JPY":{"stepUpThreshold":"200000"}}`), or the
 * built-in defaults alone when it is unset. Throws LimitsConfigError naming the key.
 */
export function parseLimitsTable(json: string | undefined): LimitsTable {
  const configured = new Map<CurrencyCode, CurrencyLimits>();
  if (json !== undefined) {
    let raw: unknown;
    try {
      raw = JSON.parse(json);
    } catch {
      throw new LimitsConfigError(
        'must be a JSON object like {"USD":{"stepUpThreshold":"1000.00"}}',
      );
    }
    const entries = z.record(z.string(), currencyLimitsInputSchema).safeParse(raw);
    if (!entries.success) {
      const issue = entries.error.issues[0];
      throw new LimitsConfigError(`${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
    }
    for (const [code, input] of Object.entries(entries.data)) {
      if (!isCurrencyCode(code)) {
        throw new LimitsConfigError(`${code}: not an ISO 4217 currency code`);
      }
      configured.set(code, mergedLimits(code, input));
    }
  }
  return {
    limitsFor: (currency) => configured.get(currency) ?? defaultLimitsFor(currency),
    configuredCurrencies: [...configured.keys()],
  };
}

/** The 403 message of a frozen account, with the reason staff gave (PRODUCT.md section 4). */
export function frozenAccountMessage(reason: string): string {
  return `Transactions are disabled on your account: ${reason}. Contact support to have them re-enabled.`;
}

/**
 * How much of one kind of money out the customer may still move today, for the forms to
 * show up front. `allowed`: `remainingMinor` is left of `dailyLimitMinor`. `level_too_low`:
 * the kind needs `minimumLevel`. `not_available`: the operator set no limits for the
 * wallet's currency, so no money leaves it.
 */
export const moneyOutAllowanceSchema = z.object({
  kind: z.enum(moneyOutKinds),
  status: z.enum(['allowed', 'level_too_low', 'not_available']),
  dailyLimitMinor: z.nullable(minorUnitsSchema),
  spentTodayMinor: minorUnitsSchema,
  remainingMinor: z.nullable(minorUnitsSchema),
  minimumLevel: z.nullable(z.number().check(z.int())),
});
export type MoneyOutAllowance = z.infer<typeof moneyOutAllowanceSchema>;

/** GET /wallet/allowances: every kind's allowance, in the wallet's currency. */
export const moneyOutAllowancesSchema = z.object({
  currency: z.string(),
  level: z.number().check(z.int()),
  /** Quick Pay at or above this asks for a step-up code; null when not available. */
  stepUpThresholdMinor: z.nullable(minorUnitsSchema),
  items: z.array(moneyOutAllowanceSchema),
});
export type MoneyOutAllowances = z.infer<typeof moneyOutAllowancesSchema>;
