import { describe, expect, it } from 'vitest';
import { toCurrencyCode } from './currencies.ts';
import {
  currenciesWithDefaultLimits,
  dailyLimitMinor,
  defaultLimitsFor,
  LimitsConfigError,
  minimumLevelFor,
  parseLimitsTable,
} from './limits.ts';

const usd = toCurrencyCode('USD');
const jpy = toCurrencyCode('JPY');
const kwd = toCurrencyCode('KWD');

describe('default limits per currency', () => {
  it('gives PRODUCT.md section 5 figures in US dollars', () => {
    const limits = defaultLimitsFor(usd);
    expect(limits && dailyLimitMinor(limits, 1, 'transfer')).toBe(50_000n);
    expect(limits && dailyLimitMinor(limits, 1, 'payout')).toBeNull();
    expect(limits && dailyLimitMinor(limits, 2, 'payout')).toBe(500_000n);
    expect(limits && dailyLimitMinor(limits, 7, 'bill_payment')).toBe(2_500_000n);
    expect(limits?.stepUpThresholdMinor).toBe(100_000n);
    expect(limits?.fourEyesThresholdMinor).toBe(1_000_000n);
  });

  it('gives values of similar worth, not the same number, in yen and dinars', () => {
    const yen = defaultLimitsFor(jpy);
    const dinar = defaultLimitsFor(kwd);
    // JPY has no minor digits, KWD three.
    expect(yen && dailyLimitMinor(yen, 1, 'bill_payment')).toBe(75_000n);
    expect(yen?.fourEyesThresholdMinor).toBe(1_500_000n);
    expect(dinar && dailyLimitMinor(dinar, 1, 'transfer')).toBe(150_000n);
    expect(dinar?.stepUpThresholdMinor).toBe(300_000n);
  });

  it('covers the common currencies and leaves the others to the operator', () => {
    for (const code of ['USD', 'EUR', 'GBP', 'JPY', 'KWD', 'CHF', 'CAD', 'AUD', 'INR', 'NGN']) {
      expect(currenciesWithDefaultLimits).toContain(code);
    }
    expect(defaultLimitsFor(toCurrencyCode('VND'))).toBeNull();
  });

  it('says which level first allows each kind', () => {
    const limits = defaultLimitsFor(usd);
    expect(limits && minimumLevelFor(limits, 'payout')).toBe(2);
    expect(limits && minimumLevelFor(limits, 'transfer')).toBe(1);
  });
});

describe('COFFER_LIMITS', () => {
  it('overrides only the keys it names, over the default', () => {
    const table = parseLimitsTable('{"JPY":{"stepUpThreshold":"200000"}}');
    const yen = table.limitsFor(jpy);
    expect(yen?.stepUpThresholdMinor).toBe(200_000n);
    expect(yen && dailyLimitMinor(yen, 1, 'transfer')).toBe(75_000n);
    expect(table.configuredCurrencies).toEqual(['JPY']);
  });

  it('adds a currency without a default when every key is given', () => {
    const amount = '1000000';
    const entry = {
      daily: {
        transfer: ['12000000', '120000000', '600000000'],
        bill_payment: ['12000000', '120000000', '600000000'],
        payout: [null, '120000000', '600000000'],
      },
      stepUpThreshold: '25000000',
      fourEyesThreshold: '250000000',
      fourEyesDailyTotal: '600000000',
      testMoneyPerRequest: amount,
      testMoneyDaily: amount,
      cardWeeklyLimit: amount,
    };
    const vnd = parseLimitsTable(JSON.stringify({ VND: entry })).limitsFor(toCurrencyCode('VND'));
    expect(vnd && dailyLimitMinor(vnd, 1, 'transfer')).toBe(12_000_000n);
    expect(vnd && dailyLimitMinor(vnd, 1, 'payout')).toBeNull();
  });

  it.each([
    ['not JSON', 'not json'],
    ['an unknown currency', '{"XYZ":{}}'],
    ['an unknown key', '{"USD":{"stepUp":"10"}}'],
    ['too many decimals', '{"USD":{"stepUpThreshold":"10.001"}}'],
    ['zero', '{"JPY":{"fourEyesThreshold":"0"}}'],
    ['a currency without a default given in part', '{"VND":{"stepUpThreshold":"100"}}'],
  ])('refuses %s with a message naming it', (_case, json) => {
    expect(() => parseLimitsTable(json)).toThrow(LimitsConfigError);
  });
});
