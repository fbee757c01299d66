import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

type TextItems = Awaited<
  ReturnType<Awaited<ReturnType<PDFDocumentProxy['getPage']>>['getTextContent']>
>['items'];
type PDFDocumentProxy = Awaited<ReturnType<typeof getDocument>['promise']>;

/**
 * The pieces of text of each page of a PDF, in page order, read back by Mozilla's PDF.js
 * as a PDF reader would: through each embedded font's ToUnicode map, so a test sees the
 * characters a person would, whatever fonts and glyph codes the PDF uses.
 */
async function pageTextItems(pdf: Buffer): Promise<TextItems[]> {
  const loading = getDocument({ data: new Uint8Array(pdf), verbosity: 0 });
  const document = await loading.promise;
  try {
    const pages: TextItems[] = [];
    for (let number = 1; number <= document.numPages; number += 1) {
      pages.push((await (await document.getPage(number)).getTextContent()).items);
    }
    return pages;
  } finally {
    await loading.destroy();
  }
}

/** The text of each page of a PDF, in page order, its pieces joined without separators. */
export async function pdfPageTexts(pdf: Buffer): Promise<string[]> {
  return (await pageTextItems(pdf)).map((items) =>
    items.map((item) => ('str' in item ? item.str : '')).join(''),
  );
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
  return (await pageTextItems(pdf)).flatMap((items, index) =>
    items.flatMap((item) => {
      if (!('str' in item) || item.str.trim() === '') return [];
      const [, , , , x = 0, y = 0] = item.transform as number[];
      return [{ page: index + 1, text: item.str, x, y, widthPt: item.width }];
    }),
  );
}
