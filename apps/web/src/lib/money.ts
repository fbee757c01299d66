import { type CurrencyCode, minorDigits, toCurrencyCode } from '@coffer/contracts/currencies';
import {
  type FormatMoneyOptions,
  formatMoney,
  MoneyParseError,
  parseAmount,
} from '@coffer/contracts/money';

/**
 * Formats an amount as the API sends it (a string of minor units, "12345") in its currency,
 * "USD 123.45". The string becomes a BigInt, never a float.
 */
export function formatAmountMinor(
  amountMinor: string | bigint,
  currency: string,
  options: FormatMoneyOptions = {},
): string {
  return formatMoney(
    {
      amountMinor: typeof amountMinor === 'bigint' ? amountMinor : BigInt(amountMinor),
      currency: toCurrencyCode(currency),
    },
    options,
  );
}

/** The smallest step of an amount input in the currency: "1" for JPY, "0.01" for USD. */
export function minorUnitStep(currency: string): string {
  const digits = minorDigits(toCurrencyCode(currency));
  return digits === 0 ? '1' : `0.${'1'.padStart(digits, '0')}`;
}

/** What a person typed as a positive amount in minor units, or null while it is not one. */
export function positiveAmountMinorOf(text: string, currency: CurrencyCode): bigint | null {
  try {
    const amountMinor = parseAmount(text, currency);
    return amountMinor > 0n ? amountMinor : null;
  } catch (error) {
    if (error instanceof MoneyParseError) return null;
    throw error;
  }
}
