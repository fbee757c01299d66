import type { CurrencyCode } from '@coffer/contracts/currencies';
import { convert } from '@coffer/contracts/exchange';
import { type FxSettings, midRateOf } from './rates.ts';

/**
 * An amount's value in another currency at today's mid rate, rounded down, for a total
 * labelled as an estimate; null when there is no usable rate. Negative amounts never occur
 * (wallets have a floor), zero is zero.
 */
export function estimateIn(
  fx: FxSettings,
  amount: { amountMinor: bigint; currency: CurrencyCode },
  target: CurrencyCode,
  now: Date,
): bigint | null {
  if (amount.currency === target || amount.amountMinor === 0n) return amount.amountMinor;
  const mid = midRateOf(fx, amount.currency, target, now);
  if ('problem' in mid) return null;
  return convert({
    sellMinor: amount.amountMinor,
    sell: amount.currency,
    receive: target,
    mid: mid.rate,
    markupBp: 0,
  }).positionMinor;
}
