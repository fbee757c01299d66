import { describe, expect, it } from 'vitest';
import { textRuns } from './fonts.ts';

const runsOf = (text: string) =>
  textRuns(text, 'regular').map((run) => [run.face.name.replace(/-\d+$/, ''), run.text]);

describe('the statement’s text runs', () => {
  it('writes an Arabic name’s words from the right: its last word leftmost', () => {
    expect(runsOf('Account holder: محمد علي الصباح.')).toEqual([
      ['noto-sans-latin', 'Account holder: '],
      ['noto-sans-arabic-arabic', 'الصباح'],
      ['noto-sans-latin', ' '],
      ['noto-sans-arabic-arabic', 'علي'],
      ['noto-sans-latin', ' '],
      ['noto-sans-arabic-arabic', 'محمد'],
      ['noto-sans-latin', '.'],
    ]);
  });

  it('lays out Arabic words around figures as a browser does (the bidirectional algorithm)', () => {
    // The first word is on the right, as the line is read from the right; 12 stays 12.
    expect(runsOf('علي 12 محمد')).toEqual([
      ['noto-sans-arabic-arabic', 'محمد'],
      ['noto-sans-latin', ' '],
      ['noto-sans-latin', '12'],
      ['noto-sans-latin', ' '],
      ['noto-sans-arabic-arabic', 'علي'],
    ]);
  });

  it('writes a right-to-left paragraph from the right: label on the right, amount on the left', () => {
    // The amount is isolated left to right (U+2066 … U+2069), as the statement writes amounts.
    const runs = textRuns('الرصيد الختامي: \u20661,234.500 KWD\u2069', 'regular', 'rtl');
    expect(runs.map((run) => run.text)).toEqual(['1,234.500 KWD', ' :', 'الختامي', ' ', 'الرصيد']);
  });

  it('prints a character no bundled font has as a question mark', () => {
    expect(runsOf('한')).toEqual([['noto-sans-latin', '?']]);
  });
});
