import { type CurrencyCode, minorDigits, toCurrencyCode } from '@coffer/contracts/currencies';
import {
  AmountRefusedError,
  type AmountUse,
  amountRefusals,
  type FormatMoneyOptions,
  formatMoney,
  parsePositiveAmount,
} from '@coffer/contracts/money';
import { z } from 'zod/mini';

/**
 * Formats an amount in minor units (as the parsed API answer gives it) in its currency,
 * "USD 123.45": exactly, never through a float.
 */
export function formatAmountMinor(
  amountMinor: bigint,
  currency: string,
  options: FormatMoneyOptions = {},
): string {
  return formatMoney({ amountMinor, currency: toCurrencyCode(currency) }, options);
}

/** The smallest step of an amount input in the currency: "1" for JPY, "0.01" for USD. */
export function minorUnitStep(currency: string): string {
  const digits = minorDigits(toCurrencyCode(currency));
  return digits === 0 ? '1' : `0.${'1'.padStart(digits, '0')}`;
}

/** What a person typed as a positive amount in minor units, or null while it is not one. */
export function positiveAmountMinorOf(text: string, currency: CurrencyCode): bigint | null {
  try {
    return parsePositiveAmount(text, currency);
  } catch (error) {
    if (error instanceof AmountRefusedError) return null;
    throw error;
  }
}

/**
 * A form's amount schema checked as the server checks it in the wallet's currency, with
 * the form's own words (`amountRefusals`) when it is not an amount above zero.
 */
export function positiveAmountSchemaFor<Schema extends z.ZodMiniType<string>>(
  schema: Schema,
  currency: CurrencyCode,
  use: AmountUse,
) {
  return schema.check(
    z.refine(
      (text) => text === '' || positiveAmountMinorOf(text, currency) !== null,
      amountRefusals[use].message,
    ),
  );
}
