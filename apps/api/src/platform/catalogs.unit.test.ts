import { join } from 'node:path';
import { compileMessageOrThrow } from '@lingui/message-utils/compileMessage';
import { compareVariables } from 'pofile-ts';
import { describe, expect, it } from 'vitest';
import { extractServerMessages } from '../../../../scripts/extract-server-messages.ts';
import { readCatalog } from './i18n.ts';

const root = join(import.meta.dirname, '../../../..');
const translatedLanguages = ['de', 'ja', 'ar'] as const;

/** What is wrong with a language's catalog against the English ids the source has. */
function catalogProblems(sourceIds: readonly string[], catalog: Map<string, string>): string[] {
  const problems: string[] = [];
  for (const id of sourceIds) {
    const translation = catalog.get(id);
    if (translation === undefined) problems.push(`lacks "${id}"`);
    else if (translation === '') problems.push(`does not translate "${id}"`);
    else {
      const { missing, extra } = compareVariables(id, translation);
      if (missing.length > 0 || extra.length > 0)
        problems.push(
          `"${id}" → "${translation}": placeholders ${[...missing, ...extra].join(', ')}`,
        );
      try {
        compileMessageOrThrow(translation);
      } catch (error) {
        problems.push(`"${translation}" is not a message: ${(error as Error).message}`);
      }
    }
  }
  return problems;
}

describe('the server’s catalogs', () => {
  const sources = extractServerMessages();

  for (const [directory, messages] of sources) {
    const ids = messages.map(({ id }) => id);

    it(`${directory}: has every message of the source (else run npm run i18n:extract)`, () => {
      const english = readCatalog(join(root, directory, 'en.po'));
      expect([...english.keys()].sort()).toEqual([...ids].sort());
    });

    for (const language of translatedLanguages) {
      it(`${directory}: translates every message into ${language}, placeholders kept`, () => {
        expect(catalogProblems(ids, readCatalog(join(root, directory, `${language}.po`)))).toEqual(
          [],
        );
      });
    }
  }

  it('refuses a catalog that lacks a message, leaves one untranslated or renames a value', () => {
    const ids = [
      'Not found.',
      'You received {amount} by Quick Pay.',
      'Use at most {max} characters',
    ];
    const broken = new Map([
      ['You received {amount} by Quick Pay.', 'Sie haben {betrag} per Quick Pay erhalten.'],
      ['Use at most {max} characters', ''],
    ]);
    expect(catalogProblems(ids, broken)).toEqual([
      'lacks "Not found."',
      '"You received {amount} by Quick Pay." → "Sie haben {betrag} per Quick Pay erhalten.": placeholders amount, betrag',
      'does not translate "Use at most {max} characters"',
    ]);
  });
});
