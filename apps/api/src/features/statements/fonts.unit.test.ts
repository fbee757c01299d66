import { describe, expect, it } from 'vitest';
import { type RunsWidth, textLines, textRuns } from './fonts.ts';

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

describe('the statement’s wrapped lines', () => {
  /** Ten points a character, whatever its face: widths the test can count. */
  const tenPerCharacter: RunsWidth = (runs) =>
    runs.reduce((sumPt, run) => sumPt + [...run.text].length * 10, 0);
  const linesOf = (text: string, direction: 'ltr' | 'rtl', widthPt: number) =>
    textLines(text, 'regular', direction, widthPt, tenPerCharacter).map((runs) =>
      runs.map((run) => run.text).join(''),
    );

  it('breaks after spaces, never wider than the box, spaces at line ends dropped', () => {
    expect(linesOf('pay the hall roof now', 'ltr', 120)).toEqual(['pay the hall', 'roof now']);
  });

  it('breaks a word wider than the box between its characters', () => {
    const lines = linesOf('INV-2026-00042-ABCDEFGHIJK', 'ltr', 80);
    expect(lines.join('')).toBe('INV-2026-00042-ABCDEFGHIJK');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(8);
    expect(linesOf('ABCDEFGHIJ', 'ltr', 40)).toEqual(['ABCD', 'EFGH', 'IJ']);
  });

  it('breaks Japanese between characters, not before a full stop', () => {
    expect(linesOf('支払いです。確認', 'ltr', 30)).toEqual(['支払い', 'です。', '確認']);
  });

  it('wraps Arabic on the logical text and lays out each line from the right', () => {
    // Read first, on the first line: "علي محمد"; each line's first word on its right.
    const lines = textLines('محمد علي الصباح الكويت', 'regular', 'rtl', 140, tenPerCharacter);
    expect(lines.map((runs) => runs.map((run) => run.text))).toEqual([
      ['علي', ' ', 'محمد'],
      ['الكويت', ' ', 'الصباح'],
    ]);
  });
});
