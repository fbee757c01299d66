import { describe, expect, it } from 'vitest';
import { luhnCheckDigit, passesLuhn, sandboxBin, sandboxCardNumber } from './issuer.ts';

describe('sandbox card numbers', () => {
  it('computes the Luhn check digit of known numbers', () => {
    expect(luhnCheckDigit('424242424242424')).toBe('2');
    expect(luhnCheckDigit('7992739871')).toBe('3');
    expect(passesLuhn('4242424242424242')).toBe(true);
    expect(passesLuhn('4242424242424241')).toBe(false);
    expect(passesLuhn('42424242a4242424')).toBe(false);
  });

  it('deals 16-digit, Luhn-valid numbers in the sandbox BIN only', () => {
    for (let index = 0; index < 1_000; index += 1) {
      const number = sandboxCardNumber();
      expect(number).toMatch(/^\d{16}$/);
      expect(number.startsWith(sandboxBin)).toBe(true);
      expect(passesLuhn(number)).toBe(true);
    }
  });
});
