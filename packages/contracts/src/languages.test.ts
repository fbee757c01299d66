import { describe, expect, it } from 'vitest';
import { type Language, languages, negotiateLanguage, requestLanguage } from './languages.ts';

const all = languages;
const withoutArabic: Language[] = ['en', 'de', 'ja'];

describe('negotiateLanguage', () => {
  it('takes the enabled language of the highest quality, in the order given on a tie', () => {
    expect(negotiateLanguage('ja;q=0.5, de;q=0.8, en;q=0.1', all)).toBe('de');
    expect(negotiateLanguage('de, ja', all)).toBe('de');
    expect(negotiateLanguage('ja;q=1.0, de', all)).toBe('ja');
  });

  it('matches on the primary subtag, whatever its case', () => {
    expect(negotiateLanguage('de-AT', all)).toBe('de');
    expect(negotiateLanguage('JA-jp', all)).toBe('ja');
    expect(negotiateLanguage('ar-KW,ar;q=0.9', all)).toBe('ar');
  });

  it('skips languages with quality 0 and those the operator has not enabled', () => {
    expect(negotiateLanguage('de;q=0, ja;q=0.2', all)).toBe('ja');
    expect(negotiateLanguage('ar, de;q=0.5', withoutArabic)).toBe('de');
    expect(negotiateLanguage('ar', withoutArabic)).toBe('en');
  });

  it('answers English for a wildcard, an unknown language, garbage or no header', () => {
    expect(negotiateLanguage('*', all)).toBe('en');
    expect(negotiateLanguage('fr-FR, it;q=0.8', all)).toBe('en');
    expect(negotiateLanguage('fr, *;q=0.5', all)).toBe('en');
    expect(negotiateLanguage(undefined, all)).toBe('en');
    expect(negotiateLanguage('', all)).toBe('en');
    for (const garbage of [';;;', 'de;q=2', 'de;q=abc', '日本語', '\u0000de', 'de;q=0.5;q=0.9x']) {
      expect(negotiateLanguage(garbage, all)).toBe('en');
    }
  });

  it('still finds a good range among broken ones', () => {
    expect(negotiateLanguage('@@, de-DE;q=0.7, ;q=', all)).toBe('de');
  });

  it('reads no more than a sane header: 10 KB is English, and quick', () => {
    const huge = `${'xx-YY;q=0.1, '.repeat(800)}de`;
    expect(huge.length).toBeGreaterThan(10_000);
    expect(negotiateLanguage(huge, all)).toBe('en');
  });
});

describe('requestLanguage', () => {
  it('prefers the chosen cookie when it names an enabled language', () => {
    expect(requestLanguage('ja', 'de', all)).toBe('ja');
  });

  it('falls back to the header for a cookie naming a disabled or unknown language', () => {
    expect(requestLanguage('ar', 'de', withoutArabic)).toBe('de');
    expect(requestLanguage('fr', 'ja', all)).toBe('ja');
    expect(requestLanguage('', undefined, all)).toBe('en');
    expect(requestLanguage('x'.repeat(10_000), 'garbage!!', all)).toBe('en');
  });
});
