import type { Readable } from 'node:stream';
import { entryKindLabels } from '@coffer/contracts/ledger';
import { formatMoney } from '@coffer/contracts/money';
import PDFDocument from 'pdfkit';
import { sandboxMarking } from '../../platform/sandbox-marking.ts';
import {
  addToTotals,
  emptyTotals,
  type StatementLine,
  type StatementSource,
  type StatementTotals,
} from './service.ts';

type Pdf = PDFKit.PDFDocument;

const marginPt = 50;
const bodySizePt = 9;
const cellGapPt = 6;
const regular = 'Helvetica';
const bold = 'Helvetica-Bold';

/** The table's columns, left to right; their widths add up to A4's width inside the margins. */
const columns = [
  { header: 'Date', widthPt: 70, align: 'left' },
  { header: 'Type', widthPt: 80, align: 'left' },
  { header: 'Description', widthPt: 155, align: 'left' },
  { header: 'Amount', widthPt: 95, align: 'right' },
  { header: 'Balance', widthPt: 95, align: 'right' },
] as const;

const utcDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
const utcDateTime = new Intl.DateTimeFormat('en-US', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});

/**
 * The standard PDF fonts only know the Windows-1252 characters: anything else (a name in
 * another script) prints as "?" rather than as garbage glyphs. Intl's spaces become plain.
 */
function pdfText(text: string): string {
  return text
    .normalize('NFC')
    .replace(/\p{Zs}/gu, ' ')
    .replace(/[^\x20-\x7e\xa1-\xff€‘’“”–—…•]/g, '?');
}

function dayText(isoDate: string): string {
  return utcDate.format(new Date(`${isoDate}T00:00:00.000Z`));
}

function moneyText(source: StatementSource, amountMinor: bigint, isSigned = false): string {
  return formatMoney(
    { amountMinor, currency: source.account.currency },
    { currencyDisplay: 'code', signDisplay: isSigned ? 'exceptZero' : 'auto' },
  );
}

function bottomPt(doc: Pdf): number {
  return doc.page.height - marginPt;
}

/** Writes one row of cells at the current height and moves below the tallest. */
function writeRow(doc: Pdf, cells: readonly string[], font: string): void {
  doc.font(font).fontSize(bodySizePt);
  const top = doc.y;
  let x = marginPt;
  let heightPt = 0;
  cells.forEach((cell, index) => {
    const column = columns[index];
    if (!column) return;
    const options = { width: column.widthPt - cellGapPt, align: column.align };
    doc.text(pdfText(cell), x, top, options);
    heightPt = Math.max(heightPt, doc.y - top);
    x += column.widthPt;
  });
  doc.x = marginPt;
  doc.y = top + heightPt + 4;
}

function rowHeightPt(doc: Pdf, cells: readonly string[]): number {
  doc.font(regular).fontSize(bodySizePt);
  return Math.max(
    ...cells.map((cell, index) =>
      doc.heightOfString(pdfText(cell), { width: (columns[index]?.widthPt ?? 0) - cellGapPt }),
    ),
  );
}

function writeTableHeader(doc: Pdf): void {
  writeRow(
    doc,
    columns.map((column) => column.header),
    bold,
  );
  const lineY = doc.y - 2;
  doc
    .moveTo(marginPt, lineY)
    .lineTo(doc.page.width - marginPt, lineY)
    .lineWidth(0.5)
    .strokeColor('#888888')
    .stroke();
  doc.y += 2;
}

function writeLabelled(doc: Pdf, label: string, value: string): void {
  doc
    .font(bold)
    .fontSize(10)
    .text(`${pdfText(label)}: `, { continued: true });
  doc.font(regular).text(pdfText(value));
}

function writeHeading(doc: Pdf, source: StatementSource, institutionName: string): void {
  const { account, period } = source;
  doc.font(bold).fontSize(18).text(pdfText(institutionName));
  doc.font(regular).fontSize(13).text('Account statement').moveDown();
  writeLabelled(doc, 'Account holder', account.holderName);
  writeLabelled(doc, 'Account number', account.accountNumber);
  writeLabelled(doc, 'Currency', account.currency);
  writeLabelled(doc, 'Period', `${dayText(period.from)} to ${dayText(period.to)} (UTC)`);
  writeLabelled(doc, 'Produced', `${utcDateTime.format(new Date())} UTC`);
  doc.moveDown();
  writeLabelled(doc, 'Opening balance', moneyText(source, source.openingBalanceMinor));
  doc.moveDown();
}

const sandboxRed = '#c92a2a';
const watermarkSizePt = 32;
const watermarkAngleDeg = -35;

/**
 * Marks the current page as a sandbox's: a red line above the content and the same words
 * across the page, faint, under it. Drawn when the page starts, so every page has it,
 * however the statement breaks. The text flow continues where it was, in the body font
 * (every writer sets its own font; one that does not writes in the body's).
 */
function markSandboxPage(doc: Pdf): void {
  const { x, y } = doc;
  const contentWidthPt = doc.page.width - 2 * marginPt;
  const centre = { x: doc.page.width / 2, y: doc.page.height / 2 };
  doc.save();
  doc.rotate(watermarkAngleDeg, { origin: [centre.x, centre.y] });
  doc.font(bold).fontSize(watermarkSizePt).fillColor(sandboxRed, 0.12);
  const watermarkWidthPt = doc.widthOfString(sandboxMarking);
  doc.text(sandboxMarking, centre.x - watermarkWidthPt / 2, centre.y - watermarkSizePt / 2, {
    lineBreak: false,
  });
  doc.restore();
  doc
    .font(bold)
    .fontSize(11)
    .fillColor(sandboxRed, 1)
    .text(sandboxMarking, marginPt, marginPt / 2 - 4, {
      width: contentWidthPt,
      align: 'center',
      lineBreak: false,
    });
  doc.font(regular).fontSize(bodySizePt).fillColor('black', 1);
  doc.x = x;
  doc.y = y;
}

/** A continuation page repeats who and when, and the table's header. */
function startNextPage(doc: Pdf, source: StatementSource, pageNumber: number): void {
  doc.addPage();
  doc
    .font(regular)
    .fontSize(8)
    .fillColor('#555555')
    .text(
      pdfText(
        `Account statement ${source.account.accountNumber}, ${dayText(source.period.from)} to ${dayText(source.period.to)}, page ${pageNumber}`,
      ),
    )
    .fillColor('black')
    .moveDown();
  writeTableHeader(doc);
}

function lineCells(source: StatementSource, line: StatementLine): string[] {
  return [
    utcDate.format(line.createdAt),
    entryKindLabels[line.kind],
    line.description,
    moneyText(source, line.amountMinor, true),
    moneyText(source, line.balanceAfterMinor),
  ];
}

function writeSummary(doc: Pdf, source: StatementSource, totals: StatementTotals): void {
  if (doc.y + 90 > bottomPt(doc)) doc.addPage();
  doc.moveDown();
  if (totals.entryCount === 0) {
    doc.font(regular).fontSize(10).text('No transactions in this period.').moveDown();
  }
  writeLabelled(doc, 'Money in', moneyText(source, totals.moneyInMinor));
  writeLabelled(doc, 'Money out', moneyText(source, totals.moneyOutMinor));
  writeLabelled(doc, 'Closing balance', moneyText(source, totals.closingBalanceMinor));
}

async function writeStatement(
  doc: Pdf,
  source: StatementSource,
  institutionName: string,
): Promise<void> {
  writeHeading(doc, source, institutionName);
  writeTableHeader(doc);
  const totals = emptyTotals(source);
  let pageNumber = 1;
  for await (const page of source.pages()) {
    for (const line of page) {
      addToTotals(totals, line);
      const cells = lineCells(source, line);
      if (doc.y + rowHeightPt(doc, cells) > bottomPt(doc)) {
        pageNumber += 1;
        startNextPage(doc, source, pageNumber);
      }
      writeRow(doc, cells, regular);
    }
  }
  writeSummary(doc, source, totals);
}

/**
 * The statement as a PDF, streamed: pages are written out as they fill, while the lines
 * are still being read, so a long statement never sits whole in memory.
 */
export function statementPdf(
  source: StatementSource,
  options: { institutionName: string; isSandbox: boolean },
): Readable {
  const { institutionName, isSandbox } = options;
  const title = `Account statement ${source.period.from} to ${source.period.to}`;
  const doc = new PDFDocument({
    size: 'A4',
    margin: marginPt,
    info: {
      Title: isSandbox ? `${sandboxMarking}: ${title}` : title,
      Author: institutionName,
    },
  });
  if (isSandbox) {
    markSandboxPage(doc);
    doc.on('pageAdded', () => markSandboxPage(doc));
  }
  writeStatement(doc, source, institutionName).then(
    () => doc.end(),
    (error: unknown) => doc.destroy(error instanceof Error ? error : new Error(String(error))),
  );
  return doc;
}
