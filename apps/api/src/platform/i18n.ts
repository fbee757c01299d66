import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isCurrencyCode } from '@coffer/contracts/currencies';
import { intlLocaleOf, type Language, languages } from '@coffer/contracts/languages';
import { type TextTranslator, textTranslator } from '@coffer/contracts/message-text';
import { formatMoney, parseAmount } from '@coffer/contracts/money';
import { type I18n, type Messages, setupI18n } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { parsePo } from 'pofile-ts';

/**
 * The API's words in four languages (ADR 055). Messages are written in English, the id of
 * each message (gettext style: `t('Hello {username},', { username })`); the PO catalogs hold
 * the translations: packages/contracts/locales (the contracts' refusals, which the web
 * shows too) and apps/api/locales (the API's own: refusals, emails, statements). `npm run
 * i18n:extract` writes both. They are read and compiled once, at start-up; each language
 * has one I18n, never switched, so concurrent requests in different languages cannot see
 * each other's. A message a catalog lacks is English.
 */
const catalogDirectories = [
  fileURLToPath(new URL('../locales/', import.meta.resolve('@coffer/contracts/languages'))),
  fileURLToPath(new URL('../../locales/', import.meta.url)),
];

/** The catalog's file of a language in a directory: its path, for the tests too. */
export function catalogFile(directory: string, language: Language): string {
  return `${directory}${language}.po`;
}

export const serverCatalogDirectories: readonly string[] = catalogDirectories;

/** Message id → translation ('' or absent: not translated yet, so English). */
export function readCatalog(file: string): Map<string, string> {
  const catalog = new Map<string, string>();
  for (const item of parsePo(readFileSync(file, 'utf8')).items) {
    if (item.obsolete || item.msgid === '') continue;
    catalog.set(item.msgid, item.msgstr[0] ?? '');
  }
  return catalog;
}

function compiledMessages(language: Language): Messages {
  const messages: Messages = {};
  for (const directory of catalogDirectories) {
    for (const [id, translation] of readCatalog(catalogFile(directory, language))) {
      messages[id] = compileMessage(translation === '' ? id : translation);
    }
  }
  return messages;
}

/**
 * en-US writes each currency with a symbol of its own ("$", "€", "¥", "CA$") or its code:
 * the currency of an amount formatted for an English message, read back by its symbol.
 */
const currencyByEnglishSymbol: ReadonlyMap<string, string> = (() => {
  const found = new Map<string, string | null>();
  for (const code of Intl.supportedValuesOf('currency')) {
    const symbol = new Intl.NumberFormat('en-US', { style: 'currency', currency: code })
      .formatToParts(0)
      .find((part) => part.type === 'currency')?.value;
    // A symbol two currencies share says neither: such an amount stays as it was written.
    if (symbol) found.set(symbol, found.has(symbol) ? null : code);
  }
  return new Map([...found].flatMap(([symbol, code]) => (code ? [[symbol, code]] : [])));
})();

const englishAmount = /^(-?)([^\d\s-][^\d]*?)\s?(\d{1,3}(?:,\d{3})*(?:\.\d+)?)$/u;

/**
 * An amount an English message was written with ("€5,000.00", formatMoney's default) as
 * the language writes it ("5.000,00 €"), through the same exact decimal: never a float.
 * Anything else is left as it was.
 */
export function localizeAmount(englishText: string, language: Language): string {
  const match = englishAmount.exec(englishText);
  const currency = match ? currencyByEnglishSymbol.get((match[2] ?? '').trim()) : undefined;
  if (!match || !currency || !isCurrencyCode(currency)) return englishText;
  try {
    const magnitudeMinor = parseAmount((match[3] ?? '').replaceAll(',', ''), currency);
    const amountMinor = match[1] === '-' ? -magnitudeMinor : magnitudeMinor;
    return formatMoney({ amountMinor, currency }, { locale: intlLocaleOf(language) });
  } catch {
    return englishText;
  }
}

type Speaker = { i18n: I18n; translateText: TextTranslator };

function speakerOf(language: Language): Speaker {
  const messages = compiledMessages(language);
  const i18n = setupI18n({
    locale: language,
    locales: [intlLocaleOf(language)],
    messages: { [language]: messages },
  });
  // A message no catalog has yet (new code before extraction) is still interpolated.
  i18n.setMessagesCompiler(compileMessage);
  return {
    i18n,
    translateText: textTranslator(
      Object.keys(messages),
      (id, values) => i18n._(id, values),
      (name, value) => (/amount/i.test(name) ? localizeAmount(value, language) : value),
    ),
  };
}

const speakers = new Map(languages.map((language) => [language, speakerOf(language)] as const));

function speaker(language: Language): Speaker {
  const found = speakers.get(language);
  if (!found) throw new Error(`no catalog for ${language}`);
  return found;
}

/** Translates a message by its English id, with its values: `t('de')('Hello {name},', { name })`. */
export type Translator = (id: string, values?: Record<string, string | number>) => string;

export function translatorFor(language: Language): Translator {
  const { i18n } = speaker(language);
  return (id, values) => i18n._(id, values);
}

/**
 * A finished English message in `language`: its own translation, or its template's filled
 * with the values the English one was (`Enter a valid {coin} address`); as it is otherwise.
 */
export function translateText(language: Language, englishText: string): string {
  if (language === 'en') return englishText;
  return speaker(language).translateText(englishText);
}

/** Each line of a text on its own (emails are written a sentence or a link per line). */
export function translateLines(language: Language, englishText: string): string {
  if (language === 'en') return englishText;
  return englishText
    .split('\n')
    .map((line) => translateText(language, line))
    .join('\n');
}
