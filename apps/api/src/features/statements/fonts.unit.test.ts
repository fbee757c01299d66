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

  it('keeps Arabic words apart from figures between them', () => {
    expect(runsOf('علي 12 محمد')).toEqual([
      ['noto-sans-arabic-arabic', 'علي'],
      ['noto-sans-latin', ' 12 '],
      ['noto-sans-arabic-arabic', 'محمد'],
    ]);
  });

  it('prints a character no bundled font has as a question mark', () => {
    expect(runsOf('한')).toEqual([['noto-sans-latin', '?']]);
  });
});
