import currencyCodes from 'currency-codes';
import { z } from './zod.ts';

/** An ISO 4217 alphabetic code that has a known number of minor digits. */
export type CurrencyCode = string & { readonly brand: 'CurrencyCode' };

// Codes such as XAU (gold) or XXX have no minor unit ("N.A." in ISO 4217); a wallet
// cannot be held in them, so they are left out rather than guessed at. The code list
// gives them 0 digits, so they are named here: no currency, testing, precious metals,
// bond-market and other units of account.
const noMinorUnit = new Set([
  'XAG',
  'XAU',
  'XBA',
  'XBB',
  'XBC',
  'XBD',
  'XDR',
  'XPD',
  'XPT',
  'XSU',
  'XTS',
  'XUA',
  'XXX',
]);
const minorDigitsByCode: ReadonlyMap<string, number> = new Map(
  currencyCodes.data
    .filter((entry) => Number.isInteger(entry.digits) && !noMinorUnit.has(entry.code))
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
