import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CurrencyCode, minorDigits, toCurrencyCode } from './currencies.ts';
import { convert, convertForReceive, crossRate, parseRate, RateParseError } from './exchange.ts';

const codes = ['JPY', 'KWD', 'USD'].map(toCurrencyCode);
const pair = fc
  .tuple(fc.constantFrom(...codes), fc.constantFrom(...codes))
  .filter(([sell, receive]) => sell !== receive);
// Rates from 0.000001 to 100 000, with up to six decimals: KWD→JPY is about 480, JPY→KWD 0.002.
const rate = fc
  .record({
    numerator: fc.bigInt({ min: 1n, max: 100_000_000_000n }),
    scale: fc.integer({ min: 0, max: 6 }),
  })
  .map(({ numerator, scale }) => ({ numerator, denominator: 10n ** BigInt(scale) }));
const markupBp = fc.integer({ min: 0, max: 5_000 });
const sellMinor = fc.bigInt({ min: 1n, max: 10n ** 12n });

/** The exact value sold at the mid rate, in the received currency's minor units: n / d. */
function midValue(
  amountMinor: bigint,
  sell: CurrencyCode,
  receive: CurrencyCode,
  mid: { numerator: bigint; denominator: bigint },
) {
  return {
    n: amountMinor * mid.numerator * 10n ** BigInt(minorDigits(receive)),
    d: mid.denominator * 10n ** BigInt(minorDigits(sell)),
  };
}

describe('convert (ADR 051)', () => {
  it('gives the customer the floor of the value at the applied rate, never less', () => {
    fc.assert(
      fc.property(pair, rate, markupBp, sellMinor, ([sell, receive], mid, bp, amount) => {
        const result = convert({ sellMinor: amount, sell, receive, mid, markupBp: bp });
        const { n, d } = midValue(amount, sell, receive, mid);
        // receive ≤ n/d × (1 − bp) < receive + 1, in integers.
        const net = n * BigInt(10_000 - bp);
        expect(result.receiveMinor * d * 10_000n <= net).toBe(true);
        expect(net < (result.receiveMinor + 1n) * d * 10_000n).toBe(true);
      }),
    );
  });

  it('books every whole unit of the mid value: received + markup + rounding, rounding 0 or 1', () => {
    fc.assert(
      fc.property(pair, rate, markupBp, sellMinor, ([sell, receive], mid, bp, amount) => {
        const result = convert({ sellMinor: amount, sell, receive, mid, markupBp: bp });
        const { n, d } = midValue(amount, sell, receive, mid);
        expect(result.positionMinor).toBe(n / d);
        expect(result.receiveMinor + result.markupMinor + result.roundingMinor).toBe(
          result.positionMinor,
        );
        expect(result.roundingMinor === 0n || result.roundingMinor === 1n).toBe(true);
        expect(result.markupMinor >= 0n).toBe(true);
      }),
    );
  });

  it('asked for an amount to receive, sells the least that receives at least that', () => {
    fc.assert(
      fc.property(
        pair,
        rate,
        markupBp,
        fc.bigInt({ min: 1n, max: 10n ** 9n }),
        ([sell, receive], mid, bp, wanted) => {
          const result = convertForReceive({
            receiveMinor: wanted,
            sell,
            receive,
            mid,
            markupBp: bp,
          });
          expect(result.receiveMinor >= wanted).toBe(true);
          if (result.sellMinor > 1n) {
            const less = convert({
              sellMinor: result.sellMinor - 1n,
              sell,
              receive,
              mid,
              markupBp: bp,
            });
            expect(less.receiveMinor < wanted).toBe(true);
          }
        },
      ),
    );
  });

  it('exchanges 100.00 EUR for yen at 161.23 less 0.5 %, with the digits of each currency', () => {
    const result = convert({
      sellMinor: 10_000n,
      sell: toCurrencyCode('EUR'),
      receive: toCurrencyCode('JPY'),
      mid: parseRate('161.23'),
      markupBp: 50,
    });
    // 16 123 yen at mid; 0.5 % is 80.615 yen: the customer receives 16 042, the markup is 80.
    expect(result).toEqual({
      sellMinor: 10_000n,
      receiveMinor: 16_042n,
      markupMinor: 80n,
      roundingMinor: 1n,
      positionMinor: 16_123n,
    });
  });

  it('converts 1 yen into KWD fils (three digits) and 1 fils into yen', () => {
    const jpy = toCurrencyCode('JPY');
    const kwd = toCurrencyCode('KWD');
    const perEuro = { JPY: parseRate('161.23'), KWD: parseRate('0.3340') };
    const yenToFils = convert({
      sellMinor: 1n,
      sell: jpy,
      receive: kwd,
      mid: crossRate(perEuro.JPY, perEuro.KWD),
      markupBp: 0,
    });
    expect(yenToFils.receiveMinor).toBe(2n); // 0.3340 / 161.23 KWD = 2.07 fils
    const filsToYen = convert({
      sellMinor: 1n,
      sell: kwd,
      receive: jpy,
      mid: crossRate(perEuro.KWD, perEuro.JPY),
      markupBp: 0,
    });
    expect(filsToYen.receiveMinor).toBe(0n); // 0.48 yen: below the smallest unit
  });
});

describe('parseRate', () => {
  it.each(['0', '-1.2', '1e3', '', 'abc', '0.0000'])('refuses %j', (text) => {
    expect(() => parseRate(text)).toThrow(RateParseError);
  });
});
