import { type CurrencyCode, minorDigits } from './currencies.ts';

/**
 * PRODUCT.md section 5: staff deposits and adjustments above this many major units of
 * the wallet's currency wait for a second admin. The server decides; the web only says
 * in advance what will happen.
 */
export const fourEyesThresholdMajor = 10_000n;

export function majorToMinor(amountMajor: bigint, currency: CurrencyCode): bigint {
  return amountMajor * 10n ** BigInt(minorDigits(currency));
}
