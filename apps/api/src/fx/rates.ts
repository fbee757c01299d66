import { readFileSync, statSync } from 'node:fs';
import { type CurrencyCode, isCurrencyCode } from '@coffer/contracts/currencies';
import {
  crossRate,
  markupBpMax,
  parseRate,
  type Rate,
  RateParseError,
} from '@coffer/contracts/exchange';

/**
 * Reference rates against one base currency, with the time they were fixed: what a rate
 * source answers. `problem` says why there are none (a missing file, a bad line).
 */
export type ReferenceRates =
  | { base: CurrencyCode; rates: ReadonlyMap<string, Rate>; at: Date; problem: null }
  | { problem: string };

/** The small seam a real provider plugs into: reference rates against a base, with a time. */
export type RateSource = { name: string; read(now: Date): ReferenceRates };

/**
 * The sandbox's fixed, documented table (docs/decisions/051): units of each currency per
 * euro, rounded ECB-style reference values of late 2026. They never change, so their time
 * is always "now": the sandbox's exchange never goes stale.
 */
export const sandboxRatesPerEuro: Readonly<Record<string, string>> = {
  EUR: '1',
  USD: '1.0850',
  JPY: '161.23',
  GBP: '0.8420',
  KWD: '0.3340',
  CHF: '0.9390',
  NGN: '1650.00',
  INR: '90.50',
};

export function sandboxRateSource(): RateSource {
  const rates = new Map(
    Object.entries(sandboxRatesPerEuro).map(([code, text]) => [code, parseRate(text)]),
  );
  return {
    name: 'sandbox',
    read: (now) => ({ base: 'EUR' as CurrencyCode, rates, at: now, problem: null }),
  };
}

/**
 * Parses the European Central Bank's daily reference rates CSV (eurofxref.csv):
 *   Date, USD, JPY, …
 *   28 November 2026, 1.0850, 161.23, …
 * Units of each currency per euro, fixed at 16:00 CET on that date. A missing, zero,
 * negative or malformed rate of a listed currency makes the whole file unusable: an
 * operator's typo must not become a price.
 */
export function parseEcbCsv(text: string): ReferenceRates {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const [headerLine, valueLine] = lines;
  if (!headerLine || !valueLine)
    return { problem: 'the rate file needs a header and a line of rates' };
  const headers = headerLine.split(',').map((cell) => cell.trim());
  const values = valueLine.split(',').map((cell) => cell.trim());
  if (headers[0]?.toLowerCase() !== 'date')
    return { problem: 'the rate file must start with a Date column' };
  // ECB writes "28 November 2026"; ISO dates are accepted too. The rates are fixed at 16:00 CET.
  const day = new Date(`${values[0] ?? ''} 15:00 UTC`);
  const isoDay = /^\d{4}-\d{2}-\d{2}$/.test(values[0] ?? '')
    ? new Date(`${values[0]}T15:00:00Z`)
    : day;
  if (Number.isNaN(isoDay.getTime()))
    return { problem: `the rate file's date is not a date: "${values[0]}"` };
  const rates = new Map<string, Rate>([['EUR', { numerator: 1n, denominator: 1n }]]);
  for (let column = 1; column < headers.length; column += 1) {
    const code = headers[column] ?? '';
    if (code === '') continue;
    if (!isCurrencyCode(code)) return { problem: `${code}: not an ISO 4217 currency code` };
    const cell = values[column] ?? '';
    try {
      rates.set(code, parseRate(cell));
    } catch (error) {
      if (!(error instanceof RateParseError)) throw error;
      return { problem: `${code}: ${cell === '' ? 'the rate is missing' : error.message}` };
    }
  }
  return { base: 'EUR' as CurrencyCode, rates, at: isoDay, problem: null };
}

/** Reads the operator's file whenever it changed (its modification time), else the last read. */
export function fileRateSource(filePath: string): RateSource {
  let cached: { modifiedMs: number; rates: ReferenceRates } | null = null;
  return {
    name: `file ${filePath}`,
    read() {
      try {
        const modifiedMs = statSync(filePath).mtimeMs;
        if (cached?.modifiedMs !== modifiedMs) {
          cached = { modifiedMs, rates: parseEcbCsv(readFileSync(filePath, 'utf8')) };
        }
        return cached.rates;
      } catch {
        return { problem: 'the rate file cannot be read' };
      }
    },
  };
}

/** Markups in basis points per pair "EUR/JPY" (either direction), with "*" for the rest. */
export type Markups = ReadonlyMap<string, number>;

export class FxConfigError extends Error {
  override name = 'FxConfigError';
}

/** `COFFER_FX_MARKUP`: JSON like {"*": 50, "EUR/JPY": 80}; refuses unknown codes and bad values. */
export function parseMarkups(json: string | undefined): Markups {
  const markups = new Map<string, number>([['*', 0]]);
  if (json === undefined) return markups;
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    parsed = null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new FxConfigError('must be a JSON object like {"*": 50, "EUR/JPY": 80}');
  }
  for (const [pair, value] of Object.entries(parsed)) {
    const codes = pair.split('/');
    const isPair = codes.length === 2 && codes.every(isCurrencyCode) && codes[0] !== codes[1];
    if (pair !== '*' && !isPair)
      throw new FxConfigError(`${pair}: not "*" or a pair like "EUR/JPY"`);
    if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > markupBpMax) {
      throw new FxConfigError(`${pair}: a markup is whole basis points from 0 to ${markupBpMax}`);
    }
    markups.set(pair, value as number);
  }
  return markups;
}

export function markupOf(markups: Markups, sell: string, receive: string): number {
  return (
    markups.get(`${sell}/${receive}`) ?? markups.get(`${receive}/${sell}`) ?? markups.get('*') ?? 0
  );
}

export type FxSettings = {
  /** The currencies the operator offers wallets in (`COFFER_CURRENCIES`). */
  currencies: readonly CurrencyCode[];
  source: RateSource;
  markups: Markups;
  /** A rate older than this is not used (`COFFER_FX_MAX_AGE`, seconds). */
  maxAgeSeconds: number;
  /** The most staff may set over the configured markups (`COFFER_FX_MARKUP_MAX`, bp). */
  markupBpMaxForStaff: number;
};

export type MidRate = { rate: Rate; at: Date };

/** The mid rate of a pair (receive units per sell unit), or why there is none usable now. */
export function midRateOf(
  fx: FxSettings,
  sell: CurrencyCode,
  receive: CurrencyCode,
  now: Date,
): MidRate | { problem: string } {
  const reference = fx.source.read(now);
  if (reference.problem !== null) return { problem: reference.problem };
  const ageSeconds = (now.getTime() - reference.at.getTime()) / 1000;
  if (ageSeconds > fx.maxAgeSeconds) {
    return {
      problem: `the rates of ${reference.at.toISOString()} are older than ${fx.maxAgeSeconds} s`,
    };
  }
  const perBaseSell = reference.rates.get(sell);
  const perBaseReceive = reference.rates.get(receive);
  if (!perBaseSell || !perBaseReceive) {
    return { problem: `no rate for ${perBaseSell ? receive : sell}` };
  }
  return { rate: crossRate(perBaseSell, perBaseReceive), at: reference.at };
}
