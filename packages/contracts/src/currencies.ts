import currencyCodes from 'currency-codes';
import { z } from './zod.ts';

/** An ISO 4217 alphabetic code that has a known number of minor digits. */
export type CurrencyCode = string & { readonly brand: 'CurrencyCode' };

// Codes such as XAU (gold) or XXX have no minor unit ("N.A." in ISO 4217); a wallet
// cannot be held in them, so they are left out rather than guessed at.
const minorDigitsByCode: ReadonlyMap<string, number> = new Map(
  currencyCodes.data
    .filter((entry) => Number.isInteger(entry.digits))
    .map((entry) => [entry.code, entry.digits]),
);

export function isCurrencyCode(value: string): value is CurrencyCode {
  return minorDigitsByCode.has(value);
}

export function toCurrencyCode(value: string): CurrencyCode {
  if (!isCurrencyCode(value)) throw new RangeError(`Unknown currency code: ${value}`);
  return value;
}

/** How many digits follow the decimal point in the currency: JPY 0, USD 2, KWD 3. */
export function minorDigits(currency: CurrencyCode): number {
  const digits = minorDigitsByCode.get(currency);
  if (digits === undefined) throw new RangeError(`Unknown currency code: ${currency}`);
  return digits;
}

export const currencyCodeSchema = z.pipe(
  z.string().check(z.refine(isCurrencyCode, { message: 'Unknown currency code' })),
  z.transform((value) => value as CurrencyCode),
);
