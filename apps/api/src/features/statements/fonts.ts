import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

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

/**
 * The text in runs of one face each. A character no bundled face has (an emoji, Hangul)
 * prints as "?" rather than as an empty box. Spaces between two words of a right-to-left
 * face stay in its run, so "محمد علي" is laid out as one name, its first word on the right.
 */
export function textRuns(text: string, weight: FontWeight): TextRun[] {
  const faces = fontFaces(weight);
  const runs: TextRun[] = [];
  for (const character of text) {
    const found = faceFor(character.codePointAt(0) ?? 0, faces);
    const face = found ?? faceFor(0x3f, faces);
    if (!face) throw new Error('no bundled font has "?"');
    const printed = found ? character : '?';
    const last = runs.at(-1);
    if (last?.face === face) last.text += printed;
    else runs.push({ face, text: printed });
  }
  return inVisualOrder(runs);
}

/**
 * Right-to-left words separated only by spaces, in the order they are seen: the last word
 * leftmost. fontkit lays out each word from the right; pdfkit loses a space inside a
 * right-to-left run, so the words stay runs of their own.
 */
function inVisualOrder(runs: readonly TextRun[]): TextRun[] {
  const isSpaces = (run: TextRun | undefined) => run !== undefined && /^ +$/.test(run.text);
  const ordered: TextRun[] = [];
  let index = 0;
  while (index < runs.length) {
    let end = index;
    if (runs[index]?.face.isRightToLeft) {
      while (isSpaces(runs[end + 1]) && runs[end + 2]?.face.isRightToLeft) end += 2;
    }
    ordered.push(...runs.slice(index, end + 1).reverse());
    index = end + 1;
  }
  return ordered;
}
