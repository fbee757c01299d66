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
