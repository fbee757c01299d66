import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvField } from './csv.ts';

const formulaCharacters = ['=', '+', '-', '@', '\t', '\r'];
/** Characters other readers split a line on: a semicolon (locales with a decimal comma), a tab, a line break. */
const otherSeparators = /[;\t\r\n]/;

/** The one field of an RFC 4180 line, as a comma-splitting spreadsheet reads it. */
function readField(field: string): string {
  return field.startsWith('"') ? field.slice(1, -1).replaceAll('""', '"') : field;
}

function startsFormula(cell: string): boolean {
  return formulaCharacters.some((character) => cell.startsWith(character));
}

const cellText = fc.string({
  unit: fc.constantFrom(
    '=',
    '+',
    '-',
    '@',
    ';',
    ',',
    '"',
    "'",
    '\t',
    '\r',
    '\n',
    ' ',
    'a',
    '1',
    '.',
  ),
  maxLength: 12,
});

describe('a statement CSV field', () => {
  it('quotes a cell holding a semicolon and keeps what follows it from starting a formula', () => {
    expect(csvField('a;=1+1')).toBe(`"a;'=1+1"`);
    expect(csvField('Refund; thanks')).toBe('"Refund; thanks"');
    expect(csvField('=1+1')).toBe(`'=1+1`);
    expect(csvField('-45.20')).toBe('-45.20');
  });

  it('never lets a comma-splitting reader see a formula, and reads back what was written', () => {
    fc.assert(
      fc.property(cellText, (text) => {
        const read = readField(csvField(text));
        expect(startsFormula(read) && !/^-?\d+(\.\d+)?$/.test(read)).toBe(false);
        // Only apostrophes are added, nothing else changes.
        expect(read.replaceAll("'", '')).toBe(text.replaceAll("'", ''));
      }),
    );
  });

  it('never starts a formula where a semicolon, tab or line break splits the line', () => {
    fc.assert(
      fc.property(cellText, (text) => {
        const [, ...laterCells] = csvField(text).split(otherSeparators);
        for (const cell of laterCells) expect(startsFormula(cell.replace(/^"+/, ''))).toBe(false);
      }),
    );
  });
});
