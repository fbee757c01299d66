import type { CurrencyCode } from './currencies.ts';
import { type FormatMoneyOptions, formatMoney } from './money.ts';

/**
 * An amount as a chart library plots it: a number of minor units, exact while it stays
 * under 2^53 (a day's volume would need 90 trillion dollars to pass it). For a chart's
 * geometry only: its labels come back through `formatPlottedMoney`, never from a float.
 */
export function plottedMinor(amountMinor: bigint): number {
  return Number(amountMinor);
}

/** The label of a plotted amount (`plottedMinor`): back to whole minor units, then formatted. */
export function formatPlottedMoney(
  plotted: number,
  currency: CurrencyCode,
  options: FormatMoneyOptions = {},
): string {
  return formatMoney({ amountMinor: BigInt(Math.round(plotted)), currency }, options);
}
