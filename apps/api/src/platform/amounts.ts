import type { CurrencyCode } from '@coffer/contracts/currencies';
import { AmountRefusedError, type AmountUse, parsePositiveAmount } from '@coffer/contracts/money';
import { AppError } from './app-error.ts';

/**
 * A typed amount above zero in the wallet's currency, or the 400 `validation_failed` in
 * the words its form uses (`amountRefusals`), so every service refuses amounts alike.
 */
export function positiveAmountOrRefuse(
  text: string,
  currency: CurrencyCode,
  use: AmountUse,
): bigint {
  try {
    return parsePositiveAmount(text, currency, use);
  } catch (error) {
    if (!(error instanceof AmountRefusedError)) throw error;
    throw new AppError('validation_failed', {
      message: error.message,
      fields: { amount: error.fieldMessage },
    });
  }
}
