import { type CurrencyCode, currencyCodeSchema, minorDigits } from './currencies.ts';
import { minorUnitsSchema } from './money.ts';
import { singleLineText } from './text.ts';
import { z } from './zod.ts';

/**
 * An exact positive rate: `numerator / denominator` units of one currency per unit of
 * another. Rates are never floats: a float's error would leak into minor units.
 */
export type Rate = { readonly numerator: bigint; readonly denominator: bigint };

export class RateParseError extends Error {
  override name = 'RateParseError';
}

const rateDecimal = /^(\d{1,12})(?:\.(\d{1,12}))?$/;

/** "161.23" → 16123/100; refuses zero, signs, exponents and more than 12 decimals. */
export function parseRate(text: string): Rate {
  const match = rateDecimal.exec(text.trim());
  if (!match) throw new RateParseError(`not a positive decimal rate: "${text}"`);
  const [, whole = '', fraction = ''] = match;
  const numerator = BigInt(whole + fraction);
  if (numerator === 0n) throw new RateParseError(`a rate must be above zero: "${text}"`);
  return { numerator, denominator: 10n ** BigInt(fraction.length) };
}

/** `to / from`: the rate of the pair when both are quoted against one base (as the ECB's). */
export function crossRate(baseToSell: Rate, baseToReceive: Rate): Rate {
  return {
    numerator: baseToReceive.numerator * baseToSell.denominator,
    denominator: baseToReceive.denominator * baseToSell.numerator,
  };
}

/** The rate as decimal text with `decimals` places, rounded down (for display only). */
export function rateToDecimalString(rate: Rate, decimals = 6): string {
  const scaled = (rate.numerator * 10n ** BigInt(decimals)) / rate.denominator;
  const text = scaled.toString().padStart(decimals + 1, '0');
  return decimals === 0 ? text : `${text.slice(0, -decimals)}.${text.slice(-decimals)}`;
}

/** A markup in basis points: 100 bp is 1 %. Below 100 % so that a customer receives something. */
export const markupBpMax = 5_000;
const basisPoints = 10_000n;

export type Conversion = {
  sellMinor: bigint;
  /** What the customer receives: floor of the amount at the applied rate (ADR 051). */
  receiveMinor: bigint;
  /** The markup in the received currency's minor units, rounded down. */
  markupMinor: bigint;
  /** The whole minor unit (0 or 1) the two round-downs leave: booked to fx_rounding. */
  roundingMinor: bigint;
  /** What the operator's position in the received currency pays out: floor of the mid value. */
  positionMinor: bigint;
};

/**
 * Converts `sellMinor` of `sell` into `receive` at `mid` (receive units per sell unit) less
 * `markupBp`. Exact integer arithmetic on the mid value V = sell × mid:
 *   receive = ⌊V × (1 − markup)⌋, markup = ⌊V × markup⌋, position = ⌊V⌋,
 *   rounding = position − receive − markup ∈ {0, 1}.
 * The sub-unit remainder of V cannot be posted and stays with the position (ADR 051).
 */
export function convert(input: {
  sellMinor: bigint;
  sell: CurrencyCode;
  receive: CurrencyCode;
  mid: Rate;
  markupBp: number;
}): Conversion {
  const { sellMinor, mid } = input;
  const markupBp = BigInt(input.markupBp);
  // V = sellMinor / 10^ds × mid × 10^dr = n / d, in the received currency's minor units.
  const n = sellMinor * mid.numerator * 10n ** BigInt(minorDigits(input.receive));
  const d = mid.denominator * 10n ** BigInt(minorDigits(input.sell));
  const positionMinor = n / d;
  const receiveMinor = (n * (basisPoints - markupBp)) / (d * basisPoints);
  const markupMinor = (n * markupBp) / (d * basisPoints);
  return {
    sellMinor,
    receiveMinor,
    markupMinor,
    roundingMinor: positionMinor - receiveMinor - markupMinor,
    positionMinor,
  };
}

/**
 * The smallest sale that receives at least `receiveMinor`: the customer asked for an
 * amount to receive. It may receive a little more where one unit sold buys several.
 */
export function convertForReceive(input: {
  receiveMinor: bigint;
  sell: CurrencyCode;
  receive: CurrencyCode;
  mid: Rate;
  markupBp: number;
}): Conversion {
  const markupBp = BigInt(input.markupBp);
  // Invert receive = ⌊sell × k⌋ with k = mid × 10^dr / 10^ds × (1 − markup): sell = ⌈receive / k⌉.
  const kNumerator =
    input.mid.numerator * 10n ** BigInt(minorDigits(input.receive)) * (basisPoints - markupBp);
  const kDenominator = input.mid.denominator * 10n ** BigInt(minorDigits(input.sell)) * basisPoints;
  let sellMinor = (input.receiveMinor * kDenominator + kNumerator - 1n) / kNumerator;
  if (sellMinor < 1n) sellMinor = 1n;
  let conversion = convert({ ...input, sellMinor });
  // The ceiling is exact in rationals; one more step guards the floor's edge.
  while (conversion.receiveMinor < input.receiveMinor) {
    sellMinor += 1n;
    conversion = convert({ ...input, sellMinor });
  }
  return conversion;
}

/** How long a quote can be accepted: the rate shown is the rate applied. */
export const quoteValiditySeconds = 30;

const amountText = singleLineText({ max: 40, tooLong: 'Invalid amount' }).check(
  z.minLength(1, 'Invalid amount'),
);

/** POST /exchange/quotes: sell an amount, or receive one; the amount is typed text. */
export const quoteBodySchema = z.object({
  sellCurrency: currencyCodeSchema,
  receiveCurrency: currencyCodeSchema,
  side: z.enum(['sell', 'receive']),
  amount: amountText,
});
export type QuoteBody = z.infer<typeof quoteBodySchema>;

export const quoteSchema = z.object({
  quoteId: z.string(),
  sellCurrency: z.string(),
  receiveCurrency: z.string(),
  sellMinor: minorUnitsSchema,
  receiveMinor: minorUnitsSchema,
  /** Mid rate and applied rate: units of the received currency per unit sold. */
  midRate: z.string(),
  appliedRate: z.string(),
  markupBp: z.number(),
  /** The markup, in the received currency: the only charge; there is no other fee. */
  markupMinor: minorUnitsSchema,
  feeMinor: minorUnitsSchema,
  rateAt: z.string(),
  expiresAt: z.string(),
});
export type Quote = z.infer<typeof quoteSchema>;

export const exchangeResultSchema = z.object({
  quoteId: z.string(),
  entryId: z.string(),
  sellCurrency: z.string(),
  receiveCurrency: z.string(),
  sellMinor: minorUnitsSchema,
  receiveMinor: minorUnitsSchema,
  appliedRate: z.string(),
});
export type ExchangeResult = z.infer<typeof exchangeResultSchema>;

export const quoteParamsSchema = z.object({ quoteId: z.uuid() });

/** One pair's rate as the rates page and the exchange page show it. */
export const ratePairSchema = z.object({
  sellCurrency: z.string(),
  receiveCurrency: z.string(),
  midRate: z.nullable(z.string()),
  markupBp: z.number(),
  rateAt: z.nullable(z.string()),
  isUsable: z.boolean(),
});

export const ratesSchema = z.object({
  source: z.string(),
  /** Whether the source answered and its rates are fresh enough to use. */
  isHealthy: z.boolean(),
  problem: z.nullable(z.string()),
  maxAgeSeconds: z.number(),
  currencies: z.array(z.string()),
  pairs: z.array(ratePairSchema),
});
export type Rates = z.infer<typeof ratesSchema>;
