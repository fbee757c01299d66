import type { CurrencyCode } from '@coffer/contracts/currencies';
import { minorDigits } from '@coffer/contracts/currencies';

/** PRODUCT.md section 5 defaults, in major units of the wallet's currency. */
export const fourEyesThresholdMajor = 10_000n;

export function majorToMinor(amountMajor: bigint, currency: CurrencyCode): bigint {
  return amountMajor * 10n ** BigInt(minorDigits(currency));
}
