import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalAmountText } from './amount-text.ts';
import { toCurrencyCode } from './currencies.ts';
import { intlLocaleOf, languages } from './languages.ts';
import { parseAmount, toDecimalString } from './money.ts';

describe('canonicalAmountText', () => {
  it.each([
    ['de', '1.500,50', '1500.50'],
    ['de', '1500,50', '1500.50'],
    ['de', '1.500', '1500'],
    ['de', '1.234.567,8', '1234567.8'],
    ['de', '12.50', '12.50'],
    ['de', '12,5', '12.5'],
    ['de', ' 5 000,00 ', '5000.00'],
    ['en', '1,500.50', '1500.50'],
    ['en', '1,500', '1500'],
    ['en', '12,50', '12.50'],
    ['en', '12.50', '12.50'],
    ['ja', '１２', '12'],
    ['ja', '１，２００．５', '1200.5'],
    ['ja', '3,000', '3000'],
    ['ar', '١٢٫٥٠', '12.50'],
    ['ar', '١٬٥٠٠', '1500'],
    ['ar', '\u200f1,500.25', '1500.25'],
  ] as const)('%s reads %j as %j', (language, typed, canonical) => {
    expect(canonicalAmountText(typed, language)).toBe(canonical);
  });

  it.each([
    ['de', '1.50.0'],
    ['de', '1,500,50'],
    ['en', '1,50,0'],
    ['en', '12..5'],
    ['de', '-5'],
    ['en', '1e3'],
  ] as const)('leaves %s %j for parseAmount to refuse', (language, typed) => {
    expect(() =>
      parseAmount(canonicalAmountText(typed, language), toCurrencyCode('EUR')),
    ).toThrow();
  });

  it('gives the same minor units in every language for what each writes', () => {
    const eur = toCurrencyCode('EUR');
    expect(parseAmount(canonicalAmountText('1.500,50', 'de'), eur)).toBe(150050n);
    expect(parseAmount(canonicalAmountText('1,500.50', 'en'), eur)).toBe(150050n);
    expect(parseAmount(canonicalAmountText('١٬٥٠٠٫٥٠', 'ar'), eur)).toBe(150050n);
  });

  it('reads back every amount as each language writes it, in JPY, USD and KWD', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        fc.constantFrom('JPY', 'USD', 'KWD'),
        fc.constantFrom(...languages),
        fc.boolean(),
        (amountMinor, code, language, isGrouped) => {
          const currency = toCurrencyCode(code);
          const digits = code === 'JPY' ? 0 : code === 'KWD' ? 3 : 2;
          // As Intl writes the number in the language (grouped or not), without the symbol.
          const written = new Intl.NumberFormat(intlLocaleOf(language), {
            minimumFractionDigits: digits,
            maximumFractionDigits: digits,
            useGrouping: isGrouped,
          }).format(toDecimalString(amountMinor, currency) as `${number}`);
          expect(parseAmount(canonicalAmountText(written, language), currency)).toBe(amountMinor);
        },
      ),
    );
  });
});
