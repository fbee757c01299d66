// Fails `npm run lint` when a message catalog (docs/decisions/054) is behind the source or
// a translation is missing or broken:
// - the extraction (`npm run i18n:extract`) would change a catalog: a message in the code
//   is missing from en.po, or one no longer used is still there;
// - a German, Japanese or Arabic catalog leaves a message of the source untranslated;
// - a translation drops, adds or renames a placeholder ({amount}) or a tag (<0>…</0>), which
//   would show a value in the wrong place or not at all.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parsePo } from 'pofile-ts';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const translatedLanguages = ['de', 'ja', 'ar'];

/** Every catalog directory: a `locales` folder holding en.po. */
function catalogDirectories() {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter(
      (entry) =>
        entry.isFile() &&
        entry.name === 'en.po' &&
        path.basename(entry.parentPath) === 'locales' &&
        !entry.parentPath.includes('node_modules'),
    )
    .map((entry) => entry.parentPath);
}

/** A PO file's entries by context and msgid (the header, msgid "", left out). */
function readPo(file) {
  const entries = new Map();
  for (const item of parsePo(readFileSync(file, 'utf8')).items) {
    if (item.obsolete || item.msgid === '') continue;
    const entry = { msgctxt: item.msgctxt ?? '', msgid: item.msgid, msgstr: item.msgstr[0] ?? '' };
    entries.set(`${entry.msgctxt}\u0004${entry.msgid}`, entry);
  }
  return entries;
}

/**
 * The placeholders and tags of a message, sorted: what a translation must keep. A name
 * counts once: a plural repeats its values in each of its forms, and languages have
 * different forms (Japanese one, Arabic six). A form's text is not a name: only `{name}`
 * and `{name, plural, …}` are placeholders.
 */
function slotsOf(message) {
  const names = [...message.matchAll(/\{\s*(\w+)\s*[,}]|<\/?(\d+)\/?>/g)].map(
    (match) => match[1] ?? `<${match[2]}>`,
  );
  return [...new Set(names)].sort().join(' ');
}

function translationProblems(directory) {
  const source = readPo(path.join(directory, 'en.po'));
  const problems = [];
  for (const language of translatedLanguages) {
    const file = path.join(directory, `${language}.po`);
    const translated = readPo(file);
    for (const [key, { msgid }] of source) {
      const msgstr = translated.get(key)?.msgstr ?? '';
      const where = `${path.relative(root, file)}: "${msgid.slice(0, 60)}"`;
      if (msgstr === '') problems.push(`${where}: not translated`);
      else if (slotsOf(msgstr) !== slotsOf(msgid)) {
        problems.push(
          `${where}: placeholders ${slotsOf(msgstr) || 'none'} where the source has ${slotsOf(msgid) || 'none'}`,
        );
      }
    }
  }
  return problems;
}

/** The catalogs the extraction changed; it leaves them extracted, ready to translate. */
function staleCatalogs(directories) {
  const files = directories.flatMap((directory) =>
    readdirSync(directory).map((name) => path.join(directory, name)),
  );
  const before = new Map(files.map((file) => [file, readFileSync(file, 'utf8')]));
  execFileSync('npx', ['lingui', 'extract', '--clean'], { cwd: root, stdio: 'ignore' });
  return files
    .filter((file) => readFileSync(file, 'utf8') !== before.get(file))
    .map(
      (file) =>
        `${path.relative(root, file)}: was behind the source; extracted now, translate and commit it`,
    );
}

/**
 * The web's catalogs share one I18n on the server, and a message's id is its English (and
 * context): the same English translated two ways in two features would show one feature the
 * other's words, and the browser, which loads only its page's, would not hydrate the page.
 */
function conflictingTranslations(directories) {
  const webDirectories = directories.filter((directory) =>
    directory.startsWith(path.join(root, 'apps/web/')),
  );
  const problems = [];
  for (const language of translatedLanguages) {
    const firstSeen = new Map();
    for (const directory of webDirectories) {
      const file = path.join(directory, `${language}.po`);
      for (const [key, { msgid, msgstr }] of readPo(file)) {
        const earlier = firstSeen.get(key);
        if (earlier && earlier.msgstr !== msgstr && msgstr !== '') {
          problems.push(
            `${path.relative(root, file)}: "${msgid.slice(0, 50)}" is "${msgstr}" here and "${earlier.msgstr}" in ${path.relative(root, earlier.file)} (give one a context, or one translation)`,
          );
        } else if (!earlier) firstSeen.set(key, { msgstr, file });
      }
    }
  }
  return problems;
}

const directories = catalogDirectories();
const problems = [
  ...staleCatalogs(directories),
  ...directories.flatMap(translationProblems),
  ...conflictingTranslations(directories),
];
if (problems.length > 0) {
  console.error(problems.join('\n'));
  console.error(
    `\n${problems.length} problem(s) with the message catalogs (scripts/check-catalogs.mjs).`,
  );
  process.exitCode = 1;
}
