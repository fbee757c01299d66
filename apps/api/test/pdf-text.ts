import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/**
 * The text of each page of a PDF, in page order, read back by Mozilla's PDF.js as a PDF
 * reader would: through each embedded font's ToUnicode map, so a test sees the characters
 * a person would, whatever fonts and glyph codes the PDF uses. Each page's pieces of text
 * are joined without separators.
 */
export async function pdfPageTexts(pdf: Buffer): Promise<string[]> {
  const loading = getDocument({ data: new Uint8Array(pdf), verbosity: 0 });
  const document = await loading.promise;
  try {
    const pages: string[] = [];
    for (let number = 1; number <= document.numPages; number += 1) {
      const content = await (await document.getPage(number)).getTextContent();
      pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(''));
    }
    return pages;
  } finally {
    await loading.destroy();
  }
}

/** The text of the whole PDF, its pages one after another. */
export async function pdfText(pdf: Buffer): Promise<string> {
  return (await pdfPageTexts(pdf)).join('');
}

/** A piece of text as drawn: its page (from 1), where it starts and how wide it is, in points. */
export type PdfTextPiece = { page: number; text: string; x: number; y: number; widthPt: number };

/**
 * Every non-blank piece of text of a PDF with where PDF.js finds it: `x` from the page's
 * left, `y` its baseline from the page's bottom (PDF's own coordinates).
 */
export async function pdfTextPieces(pdf: Buffer): Promise<PdfTextPiece[]> {
  const loading = getDocument({ data: new Uint8Array(pdf), verbosity: 0 });
  const document = await loading.promise;
  try {
    const pieces: PdfTextPiece[] = [];
    for (let page = 1; page <= document.numPages; page += 1) {
      const content = await (await document.getPage(page)).getTextContent();
      for (const item of content.items) {
        if (!('str' in item) || item.str.trim() === '') continue;
        const [, , , , x, y] = item.transform as number[];
        pieces.push({ page, text: item.str, x: x ?? 0, y: y ?? 0, widthPt: item.width });
      }
    }
    return pieces;
  } finally {
    await loading.destroy();
  }
}
