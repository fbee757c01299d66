import type { CurrencyCode } from '@coffer/contracts/currencies';
import { isCurrencyCode } from '@coffer/contracts/currencies';
import { MoneyParseError, parseAmount } from '@coffer/contracts/money';
import { AppError } from '../../platform/app-error.ts';

/**
 * The checks every imported payment file gets (issue #30 item 7): a refusal names the
 * line and column, and nothing of the file is imported.
 */

/** A cell or field a spreadsheet would run as a formula. */
export const formulaStart = /^[=+\-@]/;

export function refuse(place: string, problem: string): never {
  throw new AppError('file_refused', {
    message: `${place}: ${problem}. Nothing was imported.`,
  });
}

/** UTF-8 text of the file, refusing a byte-order mark and bytes that are not UTF-8. */
export function decoded(bytes: Buffer): string {
  const hasBom =
    (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) ||
    (bytes[0] === 0xfe && bytes[1] === 0xff) ||
    (bytes[0] === 0xff && bytes[1] === 0xfe);
  if (hasBom) {
    refuse(
      'line 1, column 1',
      'the file starts with a byte-order mark; save it as UTF-8 without one',
    );
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return refuse('line 1, column 1', 'the file is not UTF-8 text');
  }
}

/** A positive amount in a known currency, with no more decimals than the currency has. */
export function positiveAmount(
  text: string,
  currency: string,
  place: string,
): { amountMinor: bigint; currency: CurrencyCode } {
  if (!isCurrencyCode(currency))
    refuse(place, `"${currency.slice(0, 10)}" is not a known currency`);
  try {
    const amountMinor = parseAmount(text, currency);
    if (amountMinor <= 0n) refuse(place, 'the amount is zero');
    return { amountMinor, currency };
  } catch (error) {
    if (!(error instanceof MoneyParseError)) throw error;
    return refuse(place, `the amount "${text.slice(0, 30)}" is refused: ${error.message}`);
  }
}
