import { describe, expect, it } from 'vitest';
import { toCurrencyCode } from './currencies.ts';
import { amountMinorMax } from './money.ts';
import { formatPlottedMoney, plottedMinor } from './plotted-money.ts';

const usd = toCurrencyCode('USD');

describe('plotted amounts', () => {
  it('plots minor units exactly and labels them back through formatMoney', () => {
    expect(plottedMinor(123_456n)).toBe(123_456);
    expect(plottedMinor(amountMinorMax)).toBe(1e15);
    expect(formatPlottedMoney(plottedMinor(123_456n), usd)).toBe('$1,234.56');
    // A chart's axis ticks are any number: they round to whole minor units.
    expect(formatPlottedMoney(2_500.4, usd, { currencyDisplay: 'code' })).toMatch(/USD\s25\.00/);
  });
});
