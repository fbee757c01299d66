import { describe, expect, it } from 'vitest';
import { isCurrencyCode, minorDigits, toCurrencyCode } from './currencies.ts';

describe('currency codes', () => {
  it('knows real currencies with their minor digits', () => {
    expect(minorDigits(toCurrencyCode('EUR'))).toBe(2);
    expect(minorDigits(toCurrencyCode('JPY'))).toBe(0);
    expect(minorDigits(toCurrencyCode('XOF'))).toBe(0);
    expect(minorDigits(toCurrencyCode('XCD'))).toBe(2);
  });

  // The attacker's pass (issue #30): a statement in "XXX" was imported as a currency with no
  // decimals, because the code list gives ISO's "N.A." as 0.
  it('knows no code without a minor unit: no currency, testing, metals, units of account', () => {
    for (const code of ['XXX', 'XTS', 'XAU', 'XAG', 'XPT', 'XPD', 'XDR', 'XSU', 'XUA', 'XBA']) {
      expect(isCurrencyCode(code), code).toBe(false);
    }
  });
});
