import { isValidIBAN } from 'ibantools';
import { describe, expect, it } from 'vitest';
import { accountIban, parseIbanScheme } from './account-iban.ts';

describe('account IBANs', () => {
  it('gives an account the IBAN of the bank code and its number, check digits computed', () => {
    const scheme = parseIbanScheme('DE:37040044');
    // The Bundesbank's example account, 0532013000 at bank 37040044.
    expect(accountIban(scheme, '0532013000')).toBe('DE89370400440532013000');
    expect(isValidIBAN(accountIban(scheme, '4000000017'))).toBe(true);
  });

  it('pads the number where the country’s account numbers are longer', () => {
    const iban = accountIban(parseIbanScheme('at:19043'), '2345732012');
    expect(iban).toMatch(/^AT\d{2}1904302345732012$/);
    expect(isValidIBAN(iban)).toBe(true);
  });

  it('refuses a value that cannot give every account an IBAN, saying why', () => {
    expect(() => parseIbanScheme('DE')).toThrow('like DE:37040044');
    expect(() => parseIbanScheme('QQ:1234')).toThrow('QQ has no IBANs');
    expect(() => parseIbanScheme('DE:370400441')).toThrow("Coffer's have 10 digits");
    expect(() => parseIbanScheme('NL:1234')).toThrow('do not make a NL account');
  });
});
