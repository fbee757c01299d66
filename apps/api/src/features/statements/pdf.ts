import type { Readable } from 'node:stream';
import { entryKindLabels } from '@coffer/contracts/ledger';
import { formatMoney } from '@coffer/contracts/money';
import { dateTimeFormatOf } from '@coffer/contracts/time-zones';
import { friendlyFormatIBAN } from 'ibantools';
import PDFDocument from 'pdfkit';
import { sandboxMarking } from '../../platform/sandbox-marking.ts';
import { type FontFace, type FontWeight, textRuns } from './fonts.ts';
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

/** The table's columns, left to right; their widths add up to A4's width inside the margins. */
const columns = [
  { header: 'Date', widthPt: 70, align: 'left' },
  { header: 'Type', widthPt: 80, align: 'left' },
  { header: 'Description', widthPt: 155, align: 'left' },
  { header: 'Amount', widthPt: 95, align: 'right' },
  { header: 'Balance', widthPt: 95, align: 'right' },
] as const;

/** Dates and times as the statement writes them, in the customer's zone. */
function zonedFormats(timeZone: string) {
  return {
    date: dateTimeFormatOf('en-US', { dateStyle: 'medium', timeZone }),
    dateTime: dateTimeFormatOf('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone }),
  };
}

/** Composed characters, plain spaces (Intl's narrow ones too), no control characters. */
function pdfText(text: string): string {
  return text
    .normalize('NFC')
    .replace(/\p{Zs}/gu, ' ')
    .replace(/[\p{Cc}\p{Cf}]/gu, '');
}

const registeredFaces = new WeakMap<Pdf, Set<string>>();

/** Switches to a bundled face, embedding it in this document the first time. */
function useFace(doc: Pdf, face: FontFace, sizePt: number): void {
  let registered = registeredFaces.get(doc);
  if (!registered) {
    registered = new Set();
    registeredFaces.set(doc, registered);
  }
  if (!registered.has(face.name)) {
    doc.registerFont(face.name, face.file);
    registered.add(face.name);
  }
  doc.font(face.name).fontSize(sizePt);
}

type TextStyle = { weight: FontWeight; sizePt: number };
type TextOptions = PDFKit.Mixins.TextOptions;

/**
 * Writes text in the bundled fonts, whatever its script: one run per font file, joined
 * with pdfkit's `continued`, so "Łukasz 山田 Ωmega" flows and wraps as one text. At `at`,
 * or where the text flow is.
 */
function writeText(
  doc: Pdf,
  text: string,
  style: TextStyle,
  options: TextOptions = {},
  at?: { x: number; y: number },
): void {
  const runs = textRuns(pdfText(text), style.weight);
  runs.forEach((run, index) => {
    useFace(doc, run.face, style.sizePt);
    const runOptions = { ...options, continued: index < runs.length - 1 || options.continued };
    if (index === 0 && at) doc.text(run.text, at.x, at.y, runOptions);
    else doc.text(run.text, runOptions);
  });
}

/** Sets the font for measuring text the statement writes (Latin text, figures). */
function useStyle(doc: Pdf, style: TextStyle): void {
  const [first] = textRuns('0', style.weight);
  if (first) useFace(doc, first.face, style.sizePt);
}

const body: TextStyle = { weight: 'regular', sizePt: bodySizePt };

/** A calendar day ("2026-11-01") as words; a date has no zone, so UTC keeps it the same day. */
const calendarDay = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });

function dayText(isoDate: string): string {
  return calendarDay.format(new Date(`${isoDate}T00:00:00.000Z`));
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
function writeRow(doc: Pdf, cells: readonly string[], weight: FontWeight): void {
  const top = doc.y;
  let x = marginPt;
  let heightPt = 0;
  cells.forEach((cell, index) => {
    const column = columns[index];
    if (!column) return;
    const options = { width: column.widthPt - cellGapPt, align: column.align };
    writeText(doc, cell, { weight, sizePt: bodySizePt }, options, { x, y: top });
    heightPt = Math.max(heightPt, doc.y - top);
    x += column.widthPt;
  });
  doc.x = marginPt;
  doc.y = top + heightPt + 4;
}

function rowHeightPt(doc: Pdf, cells: readonly string[]): number {
  useStyle(doc, body);
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
    'bold',
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
  writeText(doc, `${label}: `, { weight: 'bold', sizePt: 10 }, { continued: true });
  writeText(doc, value, { weight: 'regular', sizePt: 10 });
}

function writeHeading(doc: Pdf, source: StatementSource, institutionName: string): void {
  const { account, period } = source;
  writeText(doc, institutionName, { weight: 'bold', sizePt: 18 });
  writeText(doc, 'Account statement', { weight: 'regular', sizePt: 13 });
  doc.moveDown();
  writeLabelled(doc, 'Account holder', account.holderName);
  writeLabelled(doc, 'Account number', account.accountNumber);
  if (account.iban) writeLabelled(doc, 'IBAN', friendlyFormatIBAN(account.iban) ?? account.iban);
  writeLabelled(doc, 'Currency', account.currency);
  const { timeZone } = account;
  writeLabelled(doc, 'Period', `${dayText(period.from)} to ${dayText(period.to)} (${timeZone})`);
  writeLabelled(
    doc,
    'Produced',
    `${zonedFormats(timeZone).dateTime.format(new Date())} (${timeZone})`,
  );
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
  const watermark: TextStyle = { weight: 'bold', sizePt: watermarkSizePt };
  doc.fillColor(sandboxRed, 0.12);
  useStyle(doc, watermark);
  const watermarkWidthPt = doc.widthOfString(sandboxMarking);
  writeText(
    doc,
    sandboxMarking,
    watermark,
    { lineBreak: false },
    { x: centre.x - watermarkWidthPt / 2, y: centre.y - watermarkSizePt / 2 },
  );
  doc.restore();
  doc.fillColor(sandboxRed, 1);
  writeText(
    doc,
    sandboxMarking,
    { weight: 'bold', sizePt: 11 },
    { width: contentWidthPt, align: 'center', lineBreak: false },
    { x: marginPt, y: marginPt / 2 - 4 },
  );
  useStyle(doc, body);
  doc.fillColor('black', 1);
  doc.x = x;
  doc.y = y;
}

/** A continuation page repeats who and when, and the table's header. */
function startNextPage(doc: Pdf, source: StatementSource, pageNumber: number): void {
  doc.addPage();
  doc.fillColor('#555555');
  writeText(
    doc,
    `Account statement ${source.account.accountNumber}, ${dayText(source.period.from)} to ${dayText(source.period.to)}, page ${pageNumber}`,
    { weight: 'regular', sizePt: 8 },
  );
  doc.fillColor('black').moveDown();
  writeTableHeader(doc);
}

function lineCells(
  source: StatementSource,
  line: StatementLine,
  lineDate: Intl.DateTimeFormat,
): string[] {
  return [
    lineDate.format(line.createdAt),
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
    writeText(doc, 'No transactions in this period.', { weight: 'regular', sizePt: 10 });
    doc.moveDown();
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
  const lineDate = zonedFormats(source.account.timeZone).date;
  let pageNumber = 1;
  for await (const page of source.pages()) {
    for (const line of page) {
      addToTotals(totals, line);
      const cells = lineCells(source, line, lineDate);
      if (doc.y + rowHeightPt(doc, cells) > bottomPt(doc)) {
        pageNumber += 1;
        startNextPage(doc, source, pageNumber);
      }
      writeRow(doc, cells, 'regular');
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
