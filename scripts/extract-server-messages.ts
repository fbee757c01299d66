// npm run i18n:extract (with `lingui extract` for the web): writes the server's PO catalogs
// from the messages in the code (scripts/server-messages.ts), keeping every translation
// already made. packages/contracts/locales: the contracts' messages (the web shows them
// too); apps/api/locales: the API's own. English's catalog says each message as it is.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createItem, createPoFile, type PoItem, parsePo, stringifyPo } from 'pofile-ts';
import { collectMessages, type SourceMessage } from './server-messages.ts';

const root = join(import.meta.dirname, '..');
const languages = ['en', 'de', 'ja', 'ar'] as const;

export const serverCatalogs = [
  { directory: 'packages/contracts/locales', sources: ['packages/contracts/src'] },
  { directory: 'apps/api/locales', sources: ['apps/api/src'] },
];

function previousTranslations(file: string): Map<string, string> {
  if (!existsSync(file)) return new Map();
  return new Map(
    parsePo(readFileSync(file, 'utf8')).items.map((item) => [item.msgid, item.msgstr[0] ?? '']),
  );
}

function catalogText(
  language: string,
  messages: SourceMessage[],
  previous: Map<string, string>,
): string {
  const po = createPoFile();
  po.headers = {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Transfer-Encoding': '8bit',
    Language: language,
    'MIME-Version': '1.0',
  };
  po.items = messages.map(({ id, origins }): PoItem => {
    const item = createItem();
    item.msgid = id;
    item.msgstr = [language === 'en' ? id : (previous.get(id) ?? '')];
    item.references = origins;
    // Lingui's PO format then takes the msgid as the message's id, as the server does.
    item.extractedComments = ['js-lingui-explicit-id'];
    return item;
  });
  return stringifyPo(po);
}

export function extractServerMessages(): Map<string, SourceMessage[]> {
  const seen = new Set<string>();
  const byDirectory = new Map<string, SourceMessage[]>();
  for (const { directory, sources } of serverCatalogs) {
    // A message the contracts have is translated there once, not again in the API's catalog.
    const messages = collectMessages(root, sources).filter(({ id }) => !seen.has(id));
    for (const { id } of messages) seen.add(id);
    byDirectory.set(directory, messages);
  }
  return byDirectory;
}

if (process.argv[1] === import.meta.filename) {
  for (const [directory, messages] of extractServerMessages()) {
    for (const language of languages) {
      const file = join(root, directory, `${language}.po`);
      writeFileSync(file, catalogText(language, messages, previousTranslations(file)));
    }
    console.log(`${directory}: ${messages.length} messages`);
  }
}
