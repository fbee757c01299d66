// The contracts' messages in the browser (docs/decisions/055): their English is their id,
// so a refusal a contract's schema writes beside a form field ("Enter a valid email") is
// looked up as written. packages/contracts/locales/<language>.po, imported with `?contracts`
// (Lingui's own plugin reads only the catalogs lingui.config.ts extracts, and its
// extraction would drop these explicit ids), becomes compiled messages, as the API compiles
// the same file at start-up.
//
// The error codes' messages (packages/contracts/src/errors.ts) are the API's answers, and
// the API writes them in the request's language itself: the browser's catalog leaves them
// out, but for the one the browser writes without an answer (`browserErrorMessages`: a
// failure it cannot explain), which would otherwise stay English. Two fifths of the
// catalog, about 2.8 KB gzipped on every page in German, Japanese and Arabic.
import { readFileSync } from 'node:fs';
import { errorCodes } from '@coffer/contracts/errors';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { parsePo } from 'pofile-ts';
import type { Plugin } from 'vite';

/** The error messages the browser writes itself: for a failure no answer explained. */
const browserErrorMessages: readonly string[] = [errorCodes.internal.message];

/** Where the API's error messages are written (a PO item's reference). */
const errorMessagesFile = 'packages/contracts/src/errors.ts';

const contractsCatalog = /[\\/]packages[\\/]contracts[\\/]locales[\\/][a-z]+\.po\?contracts$/;

/** The compiled messages of one contracts PO file that the browser needs (above). */
export function browserContractMessages(poText: string): Record<string, unknown> {
  const messages: Record<string, unknown> = {};
  for (const item of parsePo(poText).items) {
    if (item.obsolete || item.msgid === '') continue;
    // Only an API answer: a schema's refusal with the same words is the browser's too.
    const isAnApiAnswer =
      item.references.length > 0 &&
      item.references.every((reference) => reference.startsWith(errorMessagesFile));
    if (isAnApiAnswer && !browserErrorMessages.includes(item.msgid)) continue;
    messages[item.msgid] = compileMessage(item.msgstr[0] || item.msgid);
  }
  return messages;
}

export function contractsCatalogs(): Plugin {
  return {
    name: 'coffer-contracts-catalogs',
    load(id) {
      if (!contractsCatalog.test(id)) return undefined;
      const file = id.slice(0, -'?contracts'.length);
      const messages = browserContractMessages(readFileSync(file, 'utf8'));
      return `export const messages = JSON.parse(${JSON.stringify(JSON.stringify(messages))});`;
    },
  };
}
