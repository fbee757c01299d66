import { type CurrencyCode, minorDigits } from './currencies.ts';
import { z } from './zod.ts';

/** An amount in the currency's minor units (cents for USD, yen for JPY, fils for KWD). */
export type Money = { readonly amountMinor: bigint; readonly currency: CurrencyCode };

/**
 * The largest amount Coffer accepts from a person, in minor units: 10^15, a quadrillion
 * cents. It keeps every sum of a few amounts far inside PostgreSQL's signed 64-bit bigint.
 */
export const amountMinorMax = 10n ** 15n;

/** PRODUCT.md section 4: a Quick Pay or bill amount that is not a number above zero. */
export const invalidAmountMessage = 'Invalid amount';
/** PRODUCT.md section 5: a payout amount that is not a number above zero. */
export const invalidPayoutAmountMessage = 'Invalid withdrawal amount';
/** The back office's and the test-money form's words for an amount that is not one. */
export const invalidStaffAmountMessage = 'Please enter a valid amount';

export class MoneyParseError extends Error {
  override name = 'MoneyParseError';
}

const plainDecimal = /^(\d+)(?:\.(\d+))?$/;

/**
 * Parses what a person typed ("1234.5") into minor units of the currency. Accepts plain
 * digits with an optional fraction no longer than the currency's minor digits. Refuses
 * signs, exponents, separators and anything above `amountMinorMax`, with a reason.
 */
export function parseAmount(text: string, currency: CurrencyCode): bigint {
  const trimmed = text.trim();
  if (trimmed === '') throw new MoneyParseError('Enter an amount');
  const match = plainDecimal.exec(trimmed);
  if (!match) throw new MoneyParseError('Enter the amount as digits, like 12.50');
  const [, wholeDigits = '', fractionDigits = ''] = match;
  const digits = minorDigits(currency);
  if (fractionDigits.length > digits) {
    throw new MoneyParseError(
      digits === 0
        ? `${currency} amounts have no decimal places`
        : `${currency} amounts have at most ${digits} decimal places`,
    );
  }
  const amountMinor = BigInt(wholeDigits + fractionDigits.padEnd(digits, '0'));
  if (amountMinor > amountMinorMax) throw new MoneyParseError('That amount is too large');
  return amountMinor;
}

/**
 * What each form says about an amount it refuses (PRODUCT.md's words): the form-level
 * message, and whether the field shows the parser's reason ("USD amounts have at most 2
 * decimal places") rather than repeating the message.
 */
export const amountRefusals = {
  quickPay: { message: invalidAmountMessage, isReasonShown: false },
  bill: { message: invalidAmountMessage, isReasonShown: false },
  payout: { message: invalidPayoutAmountMessage, isReasonShown: true },
  moneyRequest: { message: invalidStaffAmountMessage, isReasonShown: true },
  // PRODUCT.md: a dispute's amount is "numeric", per field.
  dispute: { message: invalidAmountMessage, isReasonShown: false },
  cardPurchase: { message: invalidAmountMessage, isReasonShown: true },
} as const;
export type AmountUse = keyof typeof amountRefusals;

/** A typed amount a form refuses: `message` for the form, `fieldMessage` beside the field. */
export class AmountRefusedError extends Error {
  override name = 'AmountRefusedError';
  constructor(
    message: string,
    readonly fieldMessage: string,
  ) {
    super(message);
  }
}

/**
 * The one parse of a typed amount that must be above zero, for every service and form:
 * minor units of the currency, or an AmountRefusedError in the words of `use` (by default
 * PRODUCT.md's general "Invalid amount").
 */
export function parsePositiveAmount(
  text: string,
  currency: CurrencyCode,
  use: AmountUse = 'quickPay',
): bigint {
  const { message, isReasonShown } = amountRefusals[use];
  let amountMinor: bigint;
  try {
    amountMinor = parseAmount(text, currency);
  } catch (error) {
    if (!(error instanceof MoneyParseError)) throw error;
    throw new AmountRefusedError(message, isReasonShown ? error.message : message);
  }
  if (amountMinor <= 0n) throw new AmountRefusedError(message, message);
  return amountMinor;
}

/** The exact decimal text of an amount, "-1234.50", for inputs, CSV and Intl. */
export function toDecimalString(amountMinor: bigint, currency: CurrencyCode): string {
  const digits = minorDigits(currency);
  const sign = amountMinor < 0n ? '-' : '';
  const magnitude = (amountMinor < 0n ? -amountMinor : amountMinor).toString();
  if (digits === 0) return sign + magnitude;
  const padded = magnitude.padStart(digits + 1, '0');
  return `${sign}${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
}

export type FormatMoneyOptions = {
  locale?: string;
  /** "always" prefixes + on credits, for signed transaction amounts. */
  signDisplay?: 'auto' | 'always' | 'exceptZero';
  /** "code" shows "USD 1,234.50" as the staff list does. */
  currencyDisplay?: 'symbol' | 'code' | 'narrowSymbol';
};

// Making an Intl.NumberFormat costs far more than formatting with one (a tenth of a
// millisecond, several times per Quick Pay on the server); there are few distinct ones,
// and the cache starts over should a caller ever pass many locales.
const moneyFormatters = new Map<string, Intl.NumberFormat>();
const moneyFormattersMax = 256;

function moneyFormatter(currency: CurrencyCode, options: FormatMoneyOptions): Intl.NumberFormat {
  const locale = options.locale ?? 'en-US';
  const currencyDisplay = options.currencyDisplay ?? 'symbol';
  const signDisplay = options.signDisplay ?? 'auto';
  const key = `${locale}|${currency}|${currencyDisplay}|${signDisplay}`;
  let formatter = moneyFormatters.get(key);
  if (!formatter) {
    const digits = minorDigits(currency);
    formatter = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      currencyDisplay,
      signDisplay,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    if (moneyFormatters.size >= moneyFormattersMax) moneyFormatters.clear();
    moneyFormatters.set(key, formatter);
  }
  return formatter;
}

/** Formats for display with Intl, exactly: the decimal string is passed, never a float. */
export function formatMoney(money: Money, options: FormatMoneyOptions = {}): string {
  // Intl reads a numeric string as an exact decimal (ECMA-402 NumberFormat v3).
  return moneyFormatter(money.currency, options).format(
    toDecimalString(money.amountMinor, money.currency) as `${number}`,
  );
}

/** An amount in minor units that came through an API answer's contract (`minorUnitsSchema`). */
export type MinorUnits = bigint & z.$brand<'MinorUnits'>;

/** Marks a bigint of minor units for an API answer, where `minorUnitsSchema` writes it. */
export function minorUnits(amountMinor: bigint): MinorUnits {
  return amountMinor as MinorUnits;
}

/**
 * Every money field of an API answer: in JSON a string of minor units ("12345", since a
 * JSON number would lose cents above 2^53), in code a branded bigint at both ends. The
 * server's serializer encodes it, the web's `apiRequest` decodes it.
 */
export const minorUnitsSchema = z.codec(
  z.string().check(z.regex(/^-?\d{1,19}$/, 'Expected an integer amount in minor units')),
  z.bigint().brand<'MinorUnits'>(),
  { decode: (text) => BigInt(text), encode: (amountMinor) => amountMinor.toString() },
);
