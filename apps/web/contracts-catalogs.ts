// The contracts' messages in the browser (docs/decisions/055): their English is their id,
// so a refusal a contract's schema writes beside a form field ("Enter a valid email") is
// looked up as written. packages/contracts/locales/<language>.po, imported with `?contracts`
// (Lingui's own plugin reads only the catalogs lingui.config.ts extracts, and its
// extraction would drop these explicit ids), becomes compiled messages, as the API compiles
// the same file at start-up.
import { readFileSync } from 'node:fs';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { parsePo } from 'pofile-ts';
import type { Plugin } from 'vite';

const contractsCatalog = /[\\/]packages[\\/]contracts[\\/]locales[\\/][a-z]+\.po\?contracts$/;

export function contractsCatalogs(): Plugin {
  return {
    name: 'coffer-contracts-catalogs',
    load(id) {
      if (!contractsCatalog.test(id)) return undefined;
      const file = id.slice(0, -'?contracts'.length);
      const messages: Record<string, unknown> = {};
      for (const item of parsePo(readFileSync(file, 'utf8')).items) {
        if (item.obsolete || item.msgid === '') continue;
        messages[item.msgid] = compileMessage(item.msgstr[0] || item.msgid);
      }
      return `export const messages = JSON.parse(${JSON.stringify(JSON.stringify(messages))});`;
    },
  };
}
