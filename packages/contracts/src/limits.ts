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

/** PRODUCT.md section 5: Quick Pay at or above this many major units asks for a step-up code. */
export const stepUpThresholdMajor = 1_000n;

/** Account levels run from 1 to this (a check constraint on users.level says the same). */
export const accountLevelMax = 9;

/** The kinds of money out that count against a daily limit. */
export const moneyOutKinds = ['transfer', 'bill_payment', 'payout'] as const;
export type MoneyOutKind = (typeof moneyOutKinds)[number];

/**
 * PRODUCT.md section 5, in major units of the wallet's currency, per UTC day and kind:
 * level 1 may Quick Pay and pay bills up to 500.00 and has no payouts; level 2 has
 * 5,000.00 for each kind; level 3 and above 25,000.00. Null: not allowed at this level.
 */
export function dailyLimitMajor(level: number, kind: MoneyOutKind): bigint | null {
  if (level <= 1) return kind === 'payout' ? null : 500n;
  if (level === 2) return 5_000n;
  return 25_000n;
}

/** The lowest level at which a kind of money out is allowed at all. */
export function minimumLevelFor(kind: MoneyOutKind): number {
  return kind === 'payout' ? 2 : 1;
}

/** The 403 message of a frozen account, with the reason staff gave (PRODUCT.md section 4). */
export function frozenAccountMessage(reason: string): string {
  return `Transactions are disabled on your account: ${reason}. Contact support to have them re-enabled.`;
}
