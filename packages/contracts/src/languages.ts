import { z } from './zod.ts';

/**
 * The languages Coffer speaks (docs/decisions/054): English, the source every message is
 * written in, then German, Japanese and Arabic. An operator enables some or all of them
 * (COFFER_LANGUAGES); English is always among them, as every missing message falls back to it.
 */
export const languages = ['en', 'de', 'ja', 'ar'] as const;

export type Language = (typeof languages)[number];

export const sourceLanguage: Language = 'en';

export function isLanguage(value: string): value is Language {
  return (languages as readonly string[]).includes(value);
}

export const languageSchema = z.enum(languages);

/**
 * The locale Intl formats a language's dates, numbers and amounts with. Arabic is written
 * with Western digits: engines differ on the default (ICU before CLDR 42 chose Arabic-Indic),
 * and a page must write the same digits on the server and in the browser.
 */
const intlLocales: Readonly<Record<Language, string>> = {
  en: 'en',
  de: 'de',
  ja: 'ja',
  ar: 'ar-u-nu-latn',
};

export function intlLocaleOf(language: Language): string {
  return intlLocales[language];
}

/** The direction a language's pages are laid out in: `dir` on `<html>`. */
export function directionOf(language: Language): 'ltr' | 'rtl' {
  return language === 'ar' ? 'rtl' : 'ltr';
}

/** Each language's own name for itself, what a switcher lists (never translated). */
export const languageNames: Readonly<Record<Language, string>> = {
  en: 'English',
  de: 'Deutsch',
  ja: '日本語',
  ar: 'العربية',
};

/** The longest Accept-Language header read: browsers send a few dozen characters. */
const acceptLanguageMaxLength = 1000;
const acceptLanguageRange =
  /^\s*([A-Za-z]{1,8})(?:-[A-Za-z0-9]{1,8})*\s*(?:;\s*q\s*=\s*([01](?:\.\d{0,3})?))?\s*$/;

/**
 * The enabled language an Accept-Language header prefers (RFC 9110 section 12.5.4, matched
 * on the primary subtag: `de-AT` is German), or English when it names none, is malformed or
 * absent. Ranges that do not parse are skipped, not fatal: a header is never an error.
 */
export function negotiateLanguage(
  acceptLanguage: string | undefined,
  enabled: readonly Language[],
): Language {
  if (!acceptLanguage || acceptLanguage.length > acceptLanguageMaxLength) return sourceLanguage;
  const ranked = acceptLanguage
    .split(',')
    .flatMap((range, index) => {
      const match = acceptLanguageRange.exec(range);
      if (!match) return [];
      const quality = match[2] === undefined ? 1 : Number(match[2]);
      return quality > 0 ? [{ primary: (match[1] ?? '').toLowerCase(), quality, index }] : [];
    })
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const { primary } of ranked) {
    if (isLanguage(primary) && enabled.includes(primary)) return primary;
  }
  return sourceLanguage;
}

/**
 * The language a request is served in: the visitor's own choice (the language cookie the
 * switcher writes) when it names an enabled language, else what the browser asks for.
 */
export function requestLanguage(
  chosen: string | undefined,
  acceptLanguage: string | undefined,
  enabled: readonly Language[],
): Language {
  if (chosen !== undefined && isLanguage(chosen) && enabled.includes(chosen)) return chosen;
  return negotiateLanguage(acceptLanguage, enabled);
}

/** The cookie the language switcher writes; the server reads it for every request. */
export const languageCookieName = 'coffer-language';
