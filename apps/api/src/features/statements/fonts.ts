import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import bidiFactory from 'bidi-js';
import LineBreaker from 'linebreak';

/**
 * The statement's fonts: Noto Sans (Latin, Greek, Cyrillic, Vietnamese) and, for what it
 * lacks, Noto Sans JP (kana and the CJK ideographs) and Noto Sans Arabic (a Kuwaiti
 * customer's legal name), bundled by the Fontsource packages.
 * Fontsource splits each font into files by Unicode range (its `unicode.json`), so a text
 * is written in runs, each in the first file whose range has its characters. Only the
 * files a statement uses are embedded, and only the glyphs it uses (pdfkit subsets them).
 */
export type FontWeight = 'regular' | 'bold';

export type FontFace = {
  name: string;
  file: string;
  ranges: readonly [number, number][];
  /** Right to left: fontkit shapes a run in it and lays it out from the right. */
  isRightToLeft: boolean;
};

const require = createRequire(import.meta.url);
const weights: Record<FontWeight, number> = { regular: 400, bold: 700 };
/** The font families, in order of preference, and the npm packages that ship them. */
const families: readonly Family[] = [
  { family: 'noto-sans', packageName: '@fontsource/noto-sans' },
  { family: 'noto-sans-jp', packageName: '@fontsource/noto-sans-jp' },
  // Only its Arabic file: the Latin and symbol files repeat what the fonts above have.
  {
    family: 'noto-sans-arabic',
    packageName: '@fontsource/noto-sans-arabic',
    subsets: ['arabic'],
    isRightToLeft: true,
  },
];

type Family = {
  family: string;
  packageName: string;
  /** The package's subsets to use; all of them when absent. */
  subsets?: readonly string[];
  isRightToLeft?: boolean;
};

/** "U+0100-02BA,U+0304" → [[0x100, 0x2ba], [0x304, 0x304]]. */
function parseUnicodeRange(unicodeRange: string): [number, number][] {
  return unicodeRange.split(',').map((part) => {
    const [from = '0', to = from] = part.trim().replace(/^U\+/i, '').split('-');
    return [Number.parseInt(from, 16), Number.parseInt(to, 16)];
  });
}

/** Fontsource names its numbered subsets "[12]" in unicode.json and "12" in file names. */
function facesOf(
  { family, packageName, subsets, isRightToLeft = false }: Family,
  weight: FontWeight,
): FontFace[] {
  const directory = path.dirname(require.resolve(`${packageName}/package.json`));
  const ranges = JSON.parse(readFileSync(path.join(directory, 'unicode.json'), 'utf8')) as Record<
    string,
    string
  >;
  return Object.entries(ranges)
    .filter(([subset]) => !subsets || subsets.includes(subset))
    .map(([subset, unicodeRange]) => {
      const fileSubset = subset.replace(/^\[(\d+)\]$/, '$1');
      const fileName = `${family}-${fileSubset}-${weights[weight]}-normal.woff`;
      return {
        name: `${family}-${fileSubset}-${weights[weight]}`,
        // WOFF, not WOFF2: pdfkit embeds WOFF2 glyphs in a form some readers must repair.
        file: path.join(directory, 'files', fileName),
        ranges: parseUnicodeRange(unicodeRange),
        isRightToLeft,
      };
    });
}

const facesByWeight = new Map<FontWeight, FontFace[]>();

/** Every face of a weight, in order of preference; read once per process. */
export function fontFaces(weight: FontWeight): FontFace[] {
  let faces = facesByWeight.get(weight);
  if (!faces) {
    faces = families.flatMap((family) => facesOf(family, weight));
    facesByWeight.set(weight, faces);
  }
  return faces;
}

function faceFor(codePoint: number, faces: readonly FontFace[]): FontFace | undefined {
  return faces.find((face) =>
    face.ranges.some(([from, to]) => codePoint >= from && codePoint <= to),
  );
}

export type TextRun = { face: FontFace; text: string };

/** The direction a paragraph is written in: an Arabic statement's is right to left. */
export type TextDirection = 'ltr' | 'rtl';

const bidi = bidiFactory();

type LevelledRun = TextRun & { level: number };

/** Each character's level in a paragraph of `direction` (the bidirectional algorithm's). */
function embeddingLevels(text: string, direction: TextDirection): ArrayLike<number> {
  return bidi.getEmbeddingLevels(text, direction).levels;
}

/**
 * The characters from `start` to `end` of a paragraph, in runs of one face and one level,
 * in their logical order. A character no bundled face has (an emoji, Hangul) prints as "?"
 * rather than as an empty box.
 */
function logicalRuns(
  text: string,
  weight: FontWeight,
  levels: ArrayLike<number>,
  start = 0,
  end = text.length,
): LevelledRun[] {
  const faces = fontFaces(weight);
  const runs: LevelledRun[] = [];
  let offset = start;
  for (const character of text.slice(start, end)) {
    const level = levels[offset] ?? 0;
    offset += character.length;
    // Directional marks and isolates have said what they had to: they print nothing.
    if (/\p{Cf}/u.test(character)) continue;
    const found = faceFor(character.codePointAt(0) ?? 0, faces);
    const face = found ?? faceFor(0x3f, faces);
    if (!face) throw new Error('no bundled font has "?"');
    const printed = found ? character : '?';
    const last = runs.at(-1);
    // pdfkit loses a space inside a right-to-left run: a space is a run of its own there.
    if (last?.face === face && last.level === level && !(face.isRightToLeft && printed === ' '))
      last.text += printed;
    else runs.push({ face, text: printed, level });
  }
  return runs;
}

/**
 * A line's runs in the order they are seen from the left. A run in an Arabic face stays in
 * its logical order: fontkit shapes it and lays it out from the right. fontkit lays out only
 * its right-to-left scripts from the right: other characters a right-to-left level holds (a
 * colon, a bracket) are turned around here, mirrored.
 */
function visualRuns(runs: readonly LevelledRun[]): TextRun[] {
  return inVisualOrder(runs).map(({ face, text: runText, level }) => ({
    face,
    text:
      level % 2 === 1 && !face.isRightToLeft
        ? [...runText]
            .reverse()
            .map((character) => bidi.getMirroredCharacter(character) ?? character)
            .join('')
        : runText,
  }));
}

/**
 * The text in runs of one face each, in the order they are seen from the left, on one line.
 * The order is the Unicode Bidirectional Algorithm's (via bidi-js), in a paragraph of
 * `direction`: "محمد علي" is laid out as one name, its first word on the right, and the
 * figures and Latin words among Arabic ones keep their own left-to-right order.
 */
export function textRuns(
  text: string,
  weight: FontWeight,
  direction: TextDirection = 'ltr',
): TextRun[] {
  return visualRuns(logicalRuns(text, weight, embeddingLevels(text, direction)));
}

/** How wide runs are printed, in points (pdfkit measures them in the document's fonts). */
export type RunsWidth = (runs: readonly TextRun[]) => number;

const graphemes = new Intl.Segmenter('und', { granularity: 'grapheme' });

/**
 * Where a line may end: the Unicode line-breaking algorithm's opportunities (UAX #14, the
 * `linebreak` package pdfkit wraps with), which break after spaces and between Japanese
 * characters but not before "。"; a word wider than the whole line may also break between
 * any two characters (graphemes), so nothing ever crosses the box.
 */
function breakOpportunities(text: string): number[] {
  const positions: number[] = [];
  const breaker = new LineBreaker(text);
  for (let found = breaker.nextBreak(); found; found = breaker.nextBreak()) {
    positions.push(found.position);
  }
  return positions;
}

/** The end of the longest start of text[start, end) that fits `widthPt`, by graphemes. */
function graphemesThatFit(
  text: string,
  start: number,
  end: number,
  fits: (lineEnd: number) => boolean,
): number {
  let lineEnd = start;
  for (const { index, segment } of graphemes.segment(text.slice(start, end))) {
    const next = start + index + segment.length;
    // A line holds at least one character, however narrow the box.
    if (lineEnd > start && !fits(next)) break;
    lineEnd = next;
  }
  return lineEnd;
}

/**
 * The text wrapped into lines no wider than `widthPt`, each line's runs in the order they
 * are seen from the left. The breaks are chosen on the logical text (what is read first is
 * on the first line, in Arabic too); the bidirectional levels are the whole paragraph's, and
 * each line is then put in visual order on its own (UBA rule L2 is per line), so a wrapped
 * Arabic description reads from the right on every line.
 */
export function textLines(
  text: string,
  weight: FontWeight,
  direction: TextDirection,
  widthPt: number,
  widthOf: RunsWidth,
): TextRun[][] {
  const levels = embeddingLevels(text, direction);
  const trimmedEnd = (start: number, end: number) =>
    start + text.slice(start, end).trimEnd().length;
  // Most texts fit: one measurement, in visual order. (fontkit keeps the characters of the
  // first text a glyph was laid out in, and pdfkit writes them as the glyph's text: Arabic
  // letters that share a glyph, س and ش, read back as the first one measured.)
  const whole = visualRuns(logicalRuns(text, weight, levels, 0, trimmedEnd(0, text.length)));
  if (widthOf(whole) <= widthPt) return whole.length > 0 ? [whole] : [];
  const fits = (start: number, end: number) =>
    widthOf(logicalRuns(text, weight, levels, start, trimmedEnd(start, end))) <= widthPt;
  const lines: [number, number][] = [];
  let lineStart = 0;
  let lineEnd = lineStart;
  for (const position of breakOpportunities(text)) {
    while (lineStart < position && !fits(lineStart, position)) {
      // The line so far ends at the last opportunity that fitted, or, when even the first
      // word is too wide, inside that word.
      const end =
        lineEnd > lineStart
          ? lineEnd
          : graphemesThatFit(text, lineStart, position, (next) => fits(lineStart, next));
      lines.push([lineStart, end]);
      lineStart = end;
      lineEnd = end;
    }
    lineEnd = position;
  }
  if (lineStart < text.length) lines.push([lineStart, text.length]);
  return lines
    .map(([start, end]) => logicalRuns(text, weight, levels, start, trimmedEnd(start, end)))
    .filter((runs) => runs.length > 0)
    .map(visualRuns);
}

/**
 * Runs from the left (UBA rule L2): from the highest level down to the lowest odd one,
 * every stretch of runs at that level or above is reversed.
 */
function inVisualOrder(runs: readonly LevelledRun[]): LevelledRun[] {
  const ordered = [...runs];
  const highest = Math.max(0, ...runs.map((run) => run.level));
  const lowestOdd = Math.min(
    highest + 1,
    ...runs.filter((run) => run.level % 2 === 1).map((run) => run.level),
  );
  for (let level = highest; level >= lowestOdd; level -= 1) {
    let index = 0;
    while (index < ordered.length) {
      if ((ordered[index]?.level ?? 0) < level) {
        index += 1;
        continue;
      }
      let end = index;
      while (end + 1 < ordered.length && (ordered[end + 1]?.level ?? 0) >= level) end += 1;
      ordered.splice(index, end - index + 1, ...ordered.slice(index, end + 1).reverse());
      index = end + 1;
    }
  }
  return ordered;
}
