// The browser's words, by what loads them (docs/decisions/054). The catalogs stay one per
// feature and one for the frame (lingui.config.ts: what translators work on and the server
// holds whole), but a browser is sent, in its language, the messages of the code it loads.
// An entry is a module the browser loads on its own: the app (main.tsx, "the frame"), a
// route module (a page, the shell, the public layout), or a module some code loads with
// `import()` (a dialog, a tab, the staff menu). Its words are those of every file it
// reaches through static imports, less the frame's, and they load with it, in parallel.
// A feature's catalog held every word of the feature, so the staff customer list carried
// the customer page's and statements the wallet's (4.3–25.3 KB gzipped in English), and a
// page carried the words of dialogs nobody had opened.
//
// Which files a module reaches is read from its import statements; which files use a
// message is the catalog's own record (each PO item's references), so a message is sent
// with every entry that uses it.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { languages } from '@coffer/contracts/languages';
import { createCompiledCatalog, getCatalogs } from '@lingui/cli/api';
import { type CatalogType, getConfig, type LinguiConfigNormalized } from '@lingui/conf';
import type { Plugin } from 'vite';
import { frameEntry, frameName, wordsFile, wordsFileStem } from './src/lib/words-files.ts';

/** The router's route modules outside features/ (app/router.tsx `routeModules`), from src/. */
const routeModuleFiles = ['app/public-layout.tsx', 'app/shell/shell-layout.tsx'];

/** A static import or re-export of a source file: `from './x.ts'`. */
const staticImport = /from '(\.{1,2}\/[^']+\.tsx?)'/g;
/** An import on demand of a source file: `import('../y.tsx')`. */
const importOnDemand = /import\('(\.{1,2}\/[^']+\.tsx?)'\)/g;

function sourceFiles(srcDir: string): string[] {
  return readdirSync(srcDir, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\./.test(file))
    .map((file) => path.join(srcDir, file));
}

/** Each source file's static imports of other source files, each file read once. */
function staticImportsReader(srcDir: string): (file: string) => string[] {
  const importsByFile = new Map<string, string[]>();
  return (file) => {
    let imports = importsByFile.get(file);
    if (!imports) {
      imports = [...readFileSync(file, 'utf8').matchAll(staticImport)]
        .map((match) => path.resolve(path.dirname(file), match[1] ?? ''))
        .filter((imported) => imported.startsWith(srcDir));
      importsByFile.set(file, imports);
    }
    return imports;
  };
}

/** Every source file `start` reaches through static imports, itself included. */
function filesReachedFrom(start: string, importsOf: (file: string) => string[]): Set<string> {
  const visited = new Set<string>();
  const pending = [start];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (visited.has(file)) continue;
    visited.add(file);
    pending.push(...importsOf(file));
  }
  return visited;
}

/** A source file by the build's name for it: `src/features/x/pages/y.tsx`. */
function entryName(srcDir: string, file: string): string {
  return `src/${path.relative(srcDir, file).split(path.sep).join('/')}`;
}

/** The router's route modules: every feature's pages, and the two layouts outside features/. */
function routeModules(srcDir: string): string[] {
  const featuresDir = path.join(srcDir, 'features');
  const pages = readdirSync(featuresDir).flatMap((feature) => {
    const pagesDir = path.join(featuresDir, feature, 'pages');
    if (!existsSync(pagesDir)) return [];
    return readdirSync(pagesDir)
      .filter((name) => name.endsWith('.tsx'))
      .map((name) => path.join(pagesDir, name));
  });
  return [...pages, ...routeModuleFiles.map((name) => path.join(srcDir, name))];
}

/** Every module some source file loads with `import()`. */
function modulesImportedOnDemand(srcDir: string): string[] {
  return sourceFiles(srcDir).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(importOnDemand)]
      .map((match) => path.resolve(path.dirname(file), match[1] ?? ''))
      .filter((imported) => imported.startsWith(srcDir)),
  );
}

/**
 * The frame ('') and every other entry with the source files whose words it carries: the
 * route modules, and the modules loaded on demand to be shown (a dialog, a tab: they reach a
 * component). One loaded for its functions (page-data.ts starts queries with the features'
 * api.ts) is shown by a page or dialog that imports it and has its words already.
 */
export function filesByWordsEntry(srcDir: string): Map<string, Set<string>> {
  const importsOf = staticImportsReader(srcDir);
  const table = new Map([[frameName, filesReachedFrom(path.join(srcDir, frameEntry), importsOf)]]);
  for (const file of routeModules(srcDir)) {
    table.set(entryName(srcDir, file), filesReachedFrom(file, importsOf));
  }
  for (const file of modulesImportedOnDemand(srcDir)) {
    const files = filesReachedFrom(file, importsOf);
    const rendersSomething = [...files].some((reached) => reached.endsWith('.tsx'));
    if (rendersSomething) table.set(entryName(srcDir, file), files);
  }
  return table;
}

type Messages = Record<string, string>;

/**
 * The messages each entry (the frame '', and every other) sends, by language: those whose
 * files it reaches; another entry's less the frame's, which every page has already. The
 * catalogs are read and the imports walked once for all the languages.
 */
export async function wordsByLanguage(
  srcDir: string,
  wanted: readonly string[],
): Promise<Map<string, Map<string, Messages>>> {
  const config = getConfig({ cwd: path.resolve(srcDir, '../../..') });
  const catalogs = await getCatalogs(config);
  const entries = filesByWordsEntry(srcDir);
  const frameFiles = entries.get(frameName) ?? new Set();
  const byLanguage = new Map<string, Map<string, Messages>>();
  for (const language of wanted) {
    const messages = await catalogMessages(config, catalogs, language);
    const table = new Map<string, Messages>();
    for (const [name, files] of entries) {
      const words: Messages = {};
      for (const { id, translation, files: usedIn } of messages) {
        const isTheFrames = name !== frameName && usedIn.some((file) => frameFiles.has(file));
        if (!isTheFrames && usedIn.some((file) => files.has(file))) words[id] = translation;
      }
      table.set(name, words);
    }
    byLanguage.set(language, table);
  }
  return byLanguage;
}

/** Every message of every catalog in `language` (English where it lacks one), with its files. */
async function catalogMessages(
  config: LinguiConfigNormalized,
  catalogs: Awaited<ReturnType<typeof getCatalogs>>,
  language: string,
) {
  const found: { id: string; translation: string; files: string[] }[] = [];
  for (const catalog of catalogs) {
    const source: CatalogType = (await catalog.read(config.sourceLocale)) ?? {};
    const translations = await catalog.getTranslations(language, {
      fallbackLocales: config.fallbackLocales,
      sourceLocale: config.sourceLocale,
      missingBehavior: 'resolved',
    });
    for (const [id, translation] of Object.entries(translations.messages)) {
      const files = (source[id]?.origin ?? []).map(([file]) => path.resolve(config.rootDir, file));
      found.push({ id, translation, files });
    }
  }
  return found;
}

const virtualId = 'virtual:coffer/page-words';
const resolvedVirtualId = `\0${virtualId}`;

/**
 * Every entry's words module in every language, compiled as Lingui's own plugin compiles a
 * catalog (an entry with none has an empty one, so every address answers), and the version
 * of them all: their addresses carry it, so the browser can write any of them itself
 * (lib/i18n.ts `wordsUrl`) instead of carrying a table of 188 hashed names (3.5 KB gzipped
 * on every page).
 */
async function compiledWords(srcDir: string) {
  const modules = new Map<string, string>();
  const entriesWithWords = new Set<string>();
  for (const [language, table] of await wordsByLanguage(srcDir, languages)) {
    for (const [entry, words] of table) {
      if (Object.keys(words).length > 0) entriesWithWords.add(entry);
      const { source, errors } = createCompiledCatalog(language, words, { namespace: 'es' });
      if (errors.length > 0) {
        const problems = errors.map((error) => `${error.id}: ${error.error}`).join('; ');
        throw new Error(`page-words: ${entry || frameEntry} in ${language}: ${problems}`);
      }
      modules.set(wordsFileStem(entry, language), source);
    }
  }
  const hash = createHash('sha256');
  for (const [stem, source] of modules) hash.update(stem).update(source);
  return { modules, entriesWithWords, version: hash.digest('hex').slice(0, 10) };
}

/**
 * `virtual:coffer/page-words`: the words' version, from which lib/i18n.ts writes any
 * words module's address; the client's build writes the modules (above) beside its chunks,
 * and the development server answers them.
 */
export function pageWords(srcDir: string): Plugin {
  let compiled: ReturnType<typeof compiledWords> | undefined;
  const words = () => {
    compiled ??= compiledWords(srcDir);
    return compiled;
  };
  return {
    name: 'coffer-page-words',
    buildStart() {
      compiled = undefined;
    },
    watchChange() {
      compiled = undefined;
    },
    resolveId: (id) => (id === virtualId ? resolvedVirtualId : undefined),
    async load(id) {
      if (id !== resolvedVirtualId) return undefined;
      return `export const wordsVersion = ${JSON.stringify((await words()).version)};`;
    },
    async generateBundle() {
      if (this.environment.name !== 'client') return;
      const { modules, version } = await words();
      for (const [stem, source] of modules) {
        this.emitFile({ type: 'asset', fileName: wordsFile(stem, version), source });
      }
    },
    transform: {
      // The source as written, before any plugin rewrites its quotes.
      order: 'pre',
      filter: { id: /\.tsx?$/ },
      async handler(code, id) {
        if (this.environment.config.consumer !== 'client') return undefined;
        const { entriesWithWords } = await words();
        return withWordsOnDemand(srcDir, id, code, entriesWithWords);
      },
    },
    configureServer(server) {
      server.middlewares.use(async (request, response, next) => {
        const { modules, version } = await words();
        const stem = /^\/assets\/words\/(.+)-([0-9a-f]+)\.js$/.exec(request.url ?? '');
        const source = stem?.[2] === version ? modules.get(stem[1] ?? '') : undefined;
        if (source === undefined) return next();
        response.setHeader('content-type', 'text/javascript');
        response.end(source);
      });
    },
  };
}

/**
 * `code` (the module `file`) with each `import('./x.tsx')` of an entry with words made
 * `loadWithWords(import('./x.tsx'), 'src/…/x.tsx')` (lib/i18n.ts), so the module's words
 * load with it, in parallel. The import is added at the end: imports are hoisted, and the
 * lines above keep their numbers for the source map.
 */
export function withWordsOnDemand(
  srcDir: string,
  file: string,
  code: string,
  entriesWithWords: ReadonlySet<string>,
): string | undefined {
  const i18nModule = path.join(srcDir, 'lib', 'i18n.ts');
  if (!file.startsWith(srcDir) || file === i18nModule) return undefined;
  let wraps = false;
  const wrapped = code.replace(importOnDemand, (whole: string, specifier: string) => {
    const entry = entryName(srcDir, path.resolve(path.dirname(file), specifier));
    if (!entriesWithWords.has(entry)) return whole;
    wraps = true;
    return `__loadWithWords(${whole}, ${JSON.stringify(entry)})`;
  });
  if (!wraps) return undefined;
  return `${wrapped}\nimport { loadWithWords as __loadWithWords } from ${JSON.stringify(i18nModule)};\n`;
}
