import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { minorDigits, toCurrencyCode } from './currencies.ts';
import {
  AmountRefusedError,
  amountMinorMax,
  formatMoney,
  MoneyParseError,
  minorUnits,
  minorUnitsSchema,
  parseAmount,
  parsePositiveAmount,
  toDecimalString,
} from './money.ts';
import { z } from './zod.ts';

const usd = toCurrencyCode('USD');
const jpy = toCurrencyCode('JPY');
const kwd = toCurrencyCode('KWD');

describe('currency minor digits come from ISO 4217 data', () => {
  it.each([
    ['JPY', 0],
    ['USD', 2],
    ['EUR', 2],
    ['KWD', 3],
    ['BHD', 3],
    ['CLF', 4],
  ])('%s has %i minor digits', (code, digits) => {
    expect(minorDigits(toCurrencyCode(code))).toBe(digits);
  });

  it('refuses codes that are not currencies', () => {
    expect(() => toCurrencyCode('ABC')).toThrow('Unknown currency code');
    expect(() => toCurrencyCode('usd')).toThrow('Unknown currency code');
  });
});

describe('minorUnitsSchema', () => {
  it('reads a string of minor units as a bigint and writes it back as the same string', () => {
    const beyondFloats = '9007199254740993';
    expect(minorUnitsSchema.parse(beyondFloats)).toBe(9007199254740993n);
    expect(minorUnitsSchema.parse('-1250')).toBe(-1250n);
    expect(z.encode(minorUnitsSchema, minorUnits(9007199254740993n))).toBe(beyondFloats);
  });

  it.each(['12.50', '1e3', '', ' 1', '0x10', 12])('refuses %j on the wire', (wire) => {
    expect(minorUnitsSchema.safeParse(wire).success).toBe(false);
  });
});

describe('parsePositiveAmount', () => {
  it('gives minor units of an amount above zero', () => {
    expect(parsePositiveAmount('12.5', usd, 'payout')).toBe(1250n);
  });

  it.each([
    ['quickPay', '0', 'Invalid amount', 'Invalid amount'],
    ['bill', '1.234', 'Invalid amount', 'Invalid amount'],
    ['payout', '0.00', 'Invalid withdrawal amount', 'Invalid withdrawal amount'],
    ['payout', '1.234', 'Invalid withdrawal amount', 'USD amounts have at most 2 decimal places'],
    ['moneyRequest', '0', 'Please enter a valid amount', 'Please enter a valid amount'],
    [
      'moneyRequest',
      'ten',
      'Please enter a valid amount',
      'Enter the amount as digits, like 12.50',
    ],
  ] as const)('%s refuses "%s" in its own words', (use, text, message, fieldMessage) => {
    expect(() => parsePositiveAmount(text, usd, use)).toThrow(
      expect.objectContaining({ name: AmountRefusedError.name, message, fieldMessage }),
    );
  });
});

describe('parseAmount', () => {
  it.each([
    ['12.34', usd, 1234n],
    ['12.3', usd, 1230n],
    ['12', usd, 1200n],
    ['0.01', usd, 1n],
    ['  7.50 ', usd, 750n],
    ['0', usd, 0n],
    ['1500', jpy, 1500n],
    ['1.234', kwd, 1234n],
    ['0.5', kwd, 500n],
    ['10000000000000', usd, 10n ** 15n],
  ])('reads %s %s as %s minor units', (text, currency, expected) => {
    expect(parseAmount(text, currency)).toBe(expected);
  });

  it.each([
    ['', usd, 'Enter an amount'],
    ['   ', usd, 'Enter an amount'],
    ['1e3', usd, 'Enter the amount as digits, like 12.50'],
    ['-0', usd, 'Enter the amount as digits, like 12.50'],
    ['-5', usd, 'Enter the amount as digits, like 12.50'],
    ['+5', usd, 'Enter the amount as digits, like 12.50'],
    ['1,000', usd, 'Enter the amount as digits, like 12.50'],
    ['.5', usd, 'Enter the amount as digits, like 12.50'],
    ['5.', usd, 'Enter the amount as digits, like 12.50'],
    ['0x10', usd, 'Enter the amount as digits, like 12.50'],
    ['１２', usd, 'Enter the amount as digits, like 12.50'],
    ['NaN', usd, 'Enter the amount as digits, like 12.50'],
    ['Infinity', usd, 'Enter the amount as digits, like 12.50'],
    ['0.001', usd, 'USD amounts have at most 2 decimal places'],
    ['1.5', jpy, 'JPY amounts have no decimal places'],
    ['0.0001', kwd, 'KWD amounts have at most 3 decimal places'],
    ['10000000000000.01', usd, 'That amount is too large'],
    ['99999999999999999999999999', usd, 'That amount is too large'],
  ])('refuses %j in %s: %s', (text, currency, message) => {
    expect(() => parseAmount(text, currency)).toThrow(new MoneyParseError(message));
  });

  it('reads back every amount it writes, in every digit count', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: amountMinorMax }),
        fc.constantFrom(usd, jpy, kwd),
        (amountMinor, currency) => {
          expect(parseAmount(toDecimalString(amountMinor, currency), currency)).toBe(amountMinor);
        },
      ),
    );
  });
});

describe('toDecimalString', () => {
  it.each([
    [0n, usd, '0.00'],
    [5n, usd, '0.05'],
    [-5n, usd, '-0.05'],
    [123456n, usd, '1234.56'],
    [123456n, jpy, '123456'],
    [-1n, kwd, '-0.001'],
    [1000n, kwd, '1.000'],
  ])('writes %s %s as %s', (amountMinor, currency, expected) => {
    expect(toDecimalString(amountMinor, currency)).toBe(expected);
  });
});

describe('formatMoney', () => {
  it('uses the currency’s own minor digits', () => {
    expect(formatMoney({ amountMinor: 123456n, currency: usd })).toBe('$1,234.56');
    expect(formatMoney({ amountMinor: 123456n, currency: jpy })).toBe('¥123,456');
    expect(formatMoney({ amountMinor: 123456n, currency: kwd }).replace(/\s/g, ' ')).toBe(
      'KWD 123.456',
    );
  });

  it('signs amounts for transaction lists', () => {
    expect(formatMoney({ amountMinor: 500n, currency: usd }, { signDisplay: 'always' })).toBe(
      '+$5.00',
    );
    expect(formatMoney({ amountMinor: -500n, currency: usd })).toBe('-$5.00');
  });

  it('shows the currency code for staff lists', () => {
    const text = formatMoney({ amountMinor: 100n, currency: usd }, { currencyDisplay: 'code' });
    expect(text.replace(/\s/g, ' ')).toBe('USD 1.00');
  });

  it('formats in the given locale', () => {
    const text = formatMoney(
      { amountMinor: 123456n, currency: toCurrencyCode('EUR') },
      { locale: 'de-DE' },
    );
    expect(text.replace(/\s/g, ' ')).toBe('1.234,56 €');
  });

  it('stays exact beyond the range of a float', () => {
    // 2^53 + 1 cents cannot be represented as a double; the formatted digits must not drift.
    const amountMinor = 2n ** 53n + 1n;
    expect(formatMoney({ amountMinor, currency: usd })).toBe('$90,071,992,547,409.93');
  });
});
