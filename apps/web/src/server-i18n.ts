import type { Language } from '@coffer/contracts/languages';
import type { I18n, Messages } from '@lingui/core';
import { renderI18n } from './lib/i18n.ts';

// The server's build holds every catalog (the frame's and each feature's) for each
// language: a page it renders shows words of any feature, with no request to wait for.
const catalogsByLanguage = new Map<string, Messages[]>();
for (const [file, catalog] of Object.entries({
  ...import.meta.glob<Messages>('./locales/*.po', { eager: true, import: 'messages' }),
  ...import.meta.glob<Messages>('./features/*/locales/*.po', { eager: true, import: 'messages' }),
  ...import.meta.glob<Messages>('../../../packages/contracts/locales/*.po', {
    eager: true,
    import: 'messages',
    query: '?contracts',
  }),
})) {
  const language = /([a-z]+)\.po(\?contracts)?$/.exec(file)?.[1] ?? '';
  catalogsByLanguage.set(language, [...(catalogsByLanguage.get(language) ?? []), catalog]);
}

/** One I18n per language, made on first use: renders only read it, several at once. */
const i18nByLanguage = new Map<Language, I18n>();

export function i18nOf(language: Language): I18n {
  let instance = i18nByLanguage.get(language);
  if (!instance) {
    instance = renderI18n(language, catalogsByLanguage.get(language) ?? []);
    i18nByLanguage.set(language, instance);
  }
  return instance;
}
