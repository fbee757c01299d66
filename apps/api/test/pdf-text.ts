import { inflateSync } from 'node:zlib';

/**
 * The standard PDF fonts use WinAnsiEncoding: Latin-1, except for these codes of
 * 0x80–0x9F, where Windows-1252 keeps its punctuation (pdfkit writes "—" as 0x97).
 */
const winAnsiPunctuation: Record<number, string> = {
  128: '€',
  133: '…',
  145: '‘',
  146: '’',
  147: '“',
  148: '”',
  149: '•',
  150: '–',
  151: '—',
};

function decodeWinAnsi(bytes: Buffer): string {
  return [...bytes].map((byte) => winAnsiPunctuation[byte] ?? String.fromCharCode(byte)).join('');
}

/** The text one content stream shows: pdfkit writes it as hex strings in TJ arrays. */
function shownText(contentStream: string): string {
  const shown: string[] = [];
  for (const array of contentStream.matchAll(/\[(.*?)\] TJ/g)) {
    const hex = [...(array[1] ?? '').matchAll(/<([0-9a-f]*)>/g)].map((part) => part[1]).join('');
    shown.push(decodeWinAnsi(Buffer.from(hex, 'hex')));
  }
  return shown.join('');
}

/**
 * The text of each page of a PDF that pdfkit wrote, in page order: every page object names
 * its content stream (`/Contents n 0 R`), which pdfkit deflates. Enough to read our own
 * statements in tests; not a general PDF reader.
 */
export function pdfPageTexts(pdf: Buffer): string[] {
  const source = pdf.toString('latin1');
  const streams = new Map<string, string>();
  // `(?:(?!endobj).)*?` keeps each match inside one object.
  const streamObjects = /(\d+) 0 obj\n<<(?:(?!endobj).)*?>>\nstream\n(.*?)\nendstream/gs;
  for (const match of source.matchAll(streamObjects)) {
    const [, objectNumber = '', deflated = ''] = match;
    streams.set(objectNumber, inflateSync(Buffer.from(deflated, 'latin1')).toString('latin1'));
  }
  const pages: string[] = [];
  // Page objects, in the order pdfkit wrote them, which is the order of the pages.
  for (const page of source.matchAll(/\/Type \/Page\n(?:(?!endobj).)*?\/Contents (\d+) 0 R/gs)) {
    const content = streams.get(page[1] ?? '');
    if (content === undefined) throw new Error(`page content ${page[1]} is not in the PDF`);
    pages.push(shownText(content));
  }
  return pages;
}

/** The text of the whole PDF, its pages one after another. */
export function pdfText(pdf: Buffer): string {
  return pdfPageTexts(pdf).join('');
}
