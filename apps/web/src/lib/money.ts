import { canonicalAmountText } from '@coffer/contracts/amount-text';
import { type CurrencyCode, minorDigits, toCurrencyCode } from '@coffer/contracts/currencies';
import { directionOf, intlLocaleOf } from '@coffer/contracts/languages';
import {
  AmountRefusedError,
  type AmountUse,
  amountRefusals,
  type FormatMoneyOptions,
  formatMoney,
  parsePositiveAmount,
} from '@coffer/contracts/money';
import { z } from 'zod/mini';
import { currentLanguage } from './i18n.ts';

/**
 * Formats an amount in minor units (as the parsed API answer gives it) in its currency, as
 * the page's language writes it ("$123.45", "123,45 $"): exactly, never through a float.
 */
export function formatAmountMinor(
  amountMinor: bigint,
  currency: string,
  options: FormatMoneyOptions = {},
): string {
  const language = currentLanguage();
  const text = formatMoney(
    { amountMinor, currency: toCurrencyCode(currency) },
    { locale: intlLocaleOf(language), ...options },
  );
  // Arabic writes "1,000.00 US$" with Western digits: isolated left to right, or the
  // sentence around it would show "$US 1,000.00" (the bidi algorithm moves the symbol).
  return directionOf(language) === 'rtl' ? `\u2066${text}\u2069` : text;
}

/** What a person typed, in the page's language, as the plain decimal text the API takes. */
export function amountTextForApi(text: string): string {
  return canonicalAmountText(text, currentLanguage());
}

/** The smallest step of an amount input in the currency: "1" for JPY, "0.01" for USD. */
export function minorUnitStep(currency: string): string {
  const digits = minorDigits(toCurrencyCode(currency));
  return digits === 0 ? '1' : `0.${'1'.padStart(digits, '0')}`;
}

/** What a person typed, in the page's language, as a positive amount in minor units, or null while it is not one. */
export function positiveAmountMinorOf(text: string, currency: CurrencyCode): bigint | null {
  return positiveAmountMinorOfApiText(amountTextForApi(text), currency);
}

function positiveAmountMinorOfApiText(apiText: string, currency: CurrencyCode): bigint | null {
  try {
    return parsePositiveAmount(apiText, currency);
  } catch (error) {
    if (error instanceof AmountRefusedError) return null;
    throw error;
  }
}

/**
 * A form's amount schema checked as the server checks it in the wallet's currency, with
 * the form's own words (`amountRefusals`) when it is not an amount above zero. What the
 * person typed in their language's way becomes the plain decimal text the API takes: the
 * form's body carries that.
 */
export function positiveAmountSchemaFor<Schema extends z.ZodMiniType<string, string>>(
  schema: Schema,
  currency: CurrencyCode,
  use: AmountUse,
) {
  return z.pipe(
    z.pipe(z.string(), z.transform(amountTextForApi)),
    schema.check(
      z.refine(
        (apiText) => apiText === '' || positiveAmountMinorOfApiText(apiText, currency) !== null,
        amountRefusals[use].message,
      ),
    ),
  );
}
