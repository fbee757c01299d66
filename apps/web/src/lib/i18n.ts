import { wordsVersion } from 'virtual:coffer/page-words';
import {
  directionOf,
  intlLocaleOf,
  isLanguage,
  type Language,
  languageCookieName,
  sourceLanguage,
} from '@coffer/contracts/languages';
import { type I18n, i18n, type Messages, setupI18n } from '@lingui/core';
import { writePreferenceCookie } from './preference-cookies.ts';
import { frameName, wordsFile, wordsFileStem } from './words-files.ts';

/**
 * The app's words (docs/decisions/054). The catalogs are one per feature and one for the
 * frame (src/locales/), but the browser is sent the words of the code it loads: the frame's
 * with the app (activateLanguage), a route module's with its code (loadPageWords) and an
 * on-demand module's with it (loadWithWords), in the language in use, one module per entry
 * and language (page-words.ts).
 */
type CatalogModule = { messages: Messages };

/** The contracts' messages, whose English is their id (contracts-catalogs.ts). */
const contractsCatalogs = import.meta.glob<CatalogModule>(
  '../../../../packages/contracts/locales/*.po',
  { query: '?contracts' },
);
/**
 * The pseudo-module of the contracts' catalog. Its words are refusals a form writes once
 * the person has typed or pressed something (the API writes its own answers in the page's
 * language), so it is loaded at the first input (loadContractWordsAtFirstInput), not with
 * the first page: 3.6–4.1 KB gzipped off every first load but in English.
 */
const contractsCatalogName = 'contracts';

/** The address of `entry`'s words in `language` (the frame '', a route or on-demand module). */
function wordsUrl(entry: string, language: Language): string {
  return `${import.meta.env.BASE_URL}${wordsFile(wordsFileStem(entry, language), wordsVersion)}`;
}

function catalogLoader(
  module: string,
  language: Language,
): (() => Promise<CatalogModule>) | undefined {
  if (module === contractsCatalogName) {
    // English needs none: its English is its id.
    return language === sourceLanguage
      ? undefined
      : contractsCatalogs[`../../../../packages/contracts/locales/${language}.po`];
  }
  return () => import(/* @vite-ignore */ wordsUrl(module, language));
}

/**
 * The addresses of the words the app loads in `language` for a first page made of
 * `routeModules` (router.tsx's route modules): the frame's (activateLanguage) and each
 * module's (loadPageWords). The server has the browser fetch them with the page's code:
 * otherwise they are asked for only once the app's code has run, and the page hydrates a
 * round trip later.
 */
export function firstPageWordsUrls(language: Language, routeModules: readonly string[]): string[] {
  return [frameName, ...routeModules].map((module) => wordsUrl(module, language));
}

/** The modules whose words this browser has needed so far, the frame ('') among them. */
const modulesInUse = new Set<string>();
/** `language/module` of every catalog loaded into `i18n`. */
const loadedCatalogs = new Set<string>();

async function loadCatalogs(language: Language, modules: Iterable<string>): Promise<void> {
  const pending = [...modules].flatMap((module) => {
    const key = `${language}/${module}`;
    const load = catalogLoader(module, language);
    if (loadedCatalogs.has(key) || !load) return [];
    return [load().then(({ messages }) => ({ key, messages }))];
  });
  for (const { key, messages } of await Promise.all(pending)) {
    i18n.load(language, messages);
    loadedCatalogs.add(key);
  }
}

/**
 * Loads the words the entry `pageModule` (the build's name, `src/features/x/pages/y.tsx`)
 * shows — those of every file it reaches that the frame has not — in the language in use,
 * before it renders: with its code, not after it.
 */
export async function loadPageWords(pageModule: string): Promise<void> {
  // The server's render has every catalog in its own I18n (renderI18n).
  if (import.meta.env.SSR) return;
  modulesInUse.add(pageModule);
  await loadCatalogs(currentLanguage(), [pageModule]);
}

/**
 * `module`, loaded with `import()`, once its words are loaded too: page-words.ts makes each
 * `import()` of a module with words of its own (a dialog, a tab) call this, so its words
 * load with its code, in parallel, rather than with the page that might open it.
 */
export async function loadWithWords<T>(module: Promise<T>, entry: string): Promise<T> {
  const [loaded] = await Promise.all([module, loadPageWords(entry)]);
  return loaded;
}

/** The language of the render in progress: the app's own, unless the server says (below). */
// Until the first activation, the page's own (the router loads the first page's words
// while the frame's load).
let languageSource = (): Language => (isLanguage(i18n.locale) ? i18n.locale : documentLanguage());

/**
 * The language of a synchronous render in progress (the landing page's), which wins over the
 * source: the server's build shares this module between its two renderers.
 */
let synchronousRenderLanguage: Language | undefined;

/** What dates and amounts are written for, where no component's `useLingui` can be asked. */
export function currentLanguage(): Language {
  return synchronousRenderLanguage ?? languageSource();
}

/**
 * For the server: renders synchronously in `language` (renderToString), leaving the source
 * the app's asynchronous renders set (setLanguageSource) as it was.
 */
export function renderSynchronouslyIn<T>(language: Language, render: () => T): T {
  const outer = synchronousRenderLanguage;
  synchronousRenderLanguage = language;
  try {
    return render();
  } finally {
    synchronousRenderLanguage = outer;
  }
}

/**
 * Switches the app to `language`: every catalog in use is loaded in it first, so no page
 * shows a mix; the document says its language and direction, and the cookie tells the
 * server, which renders pages and writes emails in it.
 */
export async function activateLanguage(language: Language): Promise<void> {
  modulesInUse.add(frameName);
  await loadCatalogs(language, modulesInUse);
  i18n.activate(language);
  document.documentElement.lang = language;
  document.documentElement.dir = directionOf(language);
  writePreferenceCookie(languageCookieName, language);
}

/** Loads the contracts' words in the language in use, and in every language switched to. */
function loadContractWords(): Promise<void> {
  modulesInUse.add(contractsCatalogName);
  return loadCatalogs(currentLanguage(), [contractsCatalogName]);
}

/**
 * The contracts' words are asked for when the person first points at, focuses or presses
 * anything: before a form can refuse what they typed. A refusal written before they arrive
 * (a first tap straight on an empty form's button, on a slow network) stays in English until
 * the form is checked again.
 */
export function loadContractWordsAtFirstInput(): void {
  if (import.meta.env.SSR) return;
  const load = () => {
    for (const type of firstInputEvents) document.removeEventListener(type, load, true);
    void loadContractWords();
  };
  for (const type of firstInputEvents) document.addEventListener(type, load, true);
}
const firstInputEvents = ['pointerover', 'focusin', 'pointerdown', 'keydown'] as const;

/** Lingui's id of a message written with its macros: six characters of a hash. */
const generatedMessageId = /^[A-Za-z0-9_-]{6}$/;

/**
 * A message whose words were not loaded shows as its id, as a production build keeps only
 * ids: said on the console, where every browser test fails on it. The contracts' messages,
 * whose id is their English, are missing by design until their words arrive.
 */
export function reportMissingWords(): void {
  i18n.on('missing', ({ id, locale }) => {
    if (!generatedMessageId.test(id)) return;
    console.error(`The words of message ${id} (${locale}) were not loaded with its code`);
  });
}

/**
 * The locale Intl writes numbers, dates and amounts with on this page ('de', 'ar-u-nu-latn'):
 * for the few places that format with Intl themselves rather than lib/money.ts or lib/dates.ts.
 */
export function intlLocale(): string {
  return intlLocaleOf(currentLanguage());
}

/** The language the server wrote the page in (`<html lang>`), which the app starts in. */
export function documentLanguage(): Language {
  if (typeof document === 'undefined') return sourceLanguage;
  const lang = document.documentElement.lang;
  return isLanguage(lang) ? lang : sourceLanguage;
}

/**
 * For the server: an I18n of its own per render (several run at once), with every catalog
 * of the language, as the server's build holds them all.
 */
export function renderI18n(language: Language, catalogs: readonly Messages[]): I18n {
  const instance = setupI18n();
  for (const messages of catalogs) instance.load(language, messages);
  instance.activate(language);
  return instance;
}

/** For the server: where the render in progress finds its language. */
export function setLanguageSource(languageOfCurrentRender: () => Language): void {
  languageSource = languageOfCurrentRender;
}
