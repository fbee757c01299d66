import { toCurrencyCode } from '@coffer/contracts/currencies';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { type FxSettings, midRateOf, parseEcbCsv, parseMarkups, type RateSource } from './rates.ts';

const eur = toCurrencyCode('EUR');
const jpy = toCurrencyCode('JPY');
const usd = toCurrencyCode('USD');

function settingsWith(csv: string, maxAgeSeconds = 86_400): FxSettings {
  const source: RateSource = { name: 'test', read: () => parseEcbCsv(csv) };
  return {
    currencies: [eur, jpy, usd],
    source,
    markups: parseMarkups(undefined),
    maxAgeSeconds,
    markupBpMaxForStaff: 1_000,
  };
}

describe('the ECB reference rates file', () => {
  it('reads the rates per euro with their day, and crosses them', () => {
    const fx = settingsWith('Date, USD, JPY,\n28 November 2026, 1.0850, 161.23,\n');
    const mid = midRateOf(fx, usd, jpy, new Date('2026-11-28T18:00:00Z'));
    expect(mid).toEqual({
      rate: { numerator: 16_123n * 10_000n, denominator: 100n * 10_850n },
      at: new Date('2026-11-28T15:00:00Z'),
    });
  });

  it.each([
    ['a negative rate', 'Date, JPY\n2026-11-28, -161.23', /JPY: not a positive decimal rate/],
    ['a missing rate', 'Date, JPY, USD\n2026-11-28, 161.23,', /USD: the rate is missing/],
    ['a zero rate', 'Date, JPY\n2026-11-28, 0.0', /JPY: a rate must be above zero/],
    ['an unknown code', 'Date, XYZ\n2026-11-28, 1.5', /XYZ: not an ISO 4217/],
    ['no date', 'Date, JPY\nyesterday, 161.23', /date is not a date/],
    ['no values', 'Date, JPY', /needs a header and a line/],
  ])('refuses the whole file with %s', (_name, csv, problem) => {
    const answer = midRateOf(settingsWith(csv), eur, jpy, new Date('2026-11-28T18:00:00Z'));
    expect('problem' in answer && answer.problem).toMatch(problem);
  });

  it('does not use rates older than COFFER_FX_MAX_AGE', () => {
    const fx = settingsWith('Date, JPY\n2026-11-20, 161.23', 4 * 86_400);
    const answer = midRateOf(fx, eur, jpy, new Date('2026-11-28T18:00:00Z'));
    expect('problem' in answer && answer.problem).toMatch(/older than 345600 s/);
  });
});

describe('exchange configuration', () => {
  it('offers the sandbox five currencies with a 0.5 % markup, and nothing elsewhere by default', () => {
    expect(loadConfig({}).fx.currencies).toEqual(['USD', 'EUR', 'JPY', 'KWD', 'GBP']);
    expect(loadConfig({}).fx.markups.get('*')).toBe(50);
  });

  it.each([
    [{ COFFER_CURRENCIES: 'USD,EURO' }, /COFFER_CURRENCIES: EURO: not an ISO 4217/],
    [{ COFFER_CURRENCIES: 'XAU' }, /COFFER_CURRENCIES: XAU/],
    [
      { COFFER_FX_MARKUP: '{"EUR/JPY": -1}' },
      /COFFER_FX_MARKUP: EUR\/JPY: a markup is whole basis points/,
    ],
    [{ COFFER_FX_MARKUP: '{"EUR-JPY": 10}' }, /COFFER_FX_MARKUP: EUR-JPY: not "\*" or a pair/],
    [{ COFFER_FX_MARKUP: '[1]' }, /COFFER_FX_MARKUP: must be a JSON object/],
    [{ COFFER_FX_MAX_AGE: '10' }, /COFFER_FX_MAX_AGE/],
  ])('refuses %j at start-up, naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
