import { describe, expect, it } from 'vitest';
import { dateOfBirthSchema, isWithinMaximumAgeOn, legalNameSchema } from './kyc.ts';

function messageFor(dateOfBirth: string): string | null {
  const parsed = dateOfBirthSchema.safeParse(dateOfBirth);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? null);
}

describe('the date of birth, shared by the KYC form and the server', () => {
  it('refuses year 0 (PostgreSQL has none) and anyone over 120 as not a real date of birth', () => {
    expect(messageFor('0000-01-01')).toBe('Enter your real date of birth');
    expect(messageFor('0001-01-01')).toBe('Enter your real date of birth');
    expect(messageFor('1800-01-01')).toBe('Enter your real date of birth');
    expect(messageFor('1990-05-17')).toBeNull();
  });

  it('takes someone up to the day before their 121st birthday', () => {
    const today = new Date('2026-11-27T12:00:00Z');
    expect(isWithinMaximumAgeOn('1905-11-28', today)).toBe(true);
    expect(isWithinMaximumAgeOn('1905-11-27', today)).toBe(false);
    expect(isWithinMaximumAgeOn('1800-01-01', today)).toBe(false);
  });

  it('still answers a date in the future, or under 18, with the minimum age', () => {
    const nextYear = `${new Date().getUTCFullYear() + 1}-01-01`;
    expect(messageFor(nextYear)).toBe('You must be 18 or older');
  });
});

describe('the legal name, shared by the KYC form and the server', () => {
  it('takes names in any script, with hyphens, apostrophes and dots', () => {
    for (const name of [
      '田中 由紀',
      'タナカ ユキ',
      'محمد بن سلمان',
      "Zoë O'Brien-Nakamura Jr.",
      'Ngũgĩ wa Thiong’o',
      'Łukasz Żółć',
      'देवनागरी नाम',
      'J. R. R. Tolkien',
    ]) {
      expect(legalNameSchema.safeParse(name).success, name).toBe(true);
    }
  });

  it('trims, and refuses markup, digits, symbols and a name that starts with no letter', () => {
    expect(legalNameSchema.parse('  Greta Walker ')).toBe('Greta Walker');
    for (const name of ['<b>x</b>', 'Greta & Co', 'Greta2', 'greta@walker', "'Greta", '.']) {
      expect(legalNameSchema.safeParse(name).success, name).toBe(false);
    }
  });
});
