import type { Readable } from 'node:stream';
import { directionOf, intlLocaleOf, type Language } from '@coffer/contracts/languages';
import { entryKindLabels } from '@coffer/contracts/ledger';
import { formatMoney } from '@coffer/contracts/money';
import { dateTimeFormatOf } from '@coffer/contracts/time-zones';
import { friendlyFormatIBAN } from 'ibantools';
import PDFDocument from 'pdfkit';
import { type Translator, translateText, translatorFor } from '../../platform/i18n.ts';
import { sandboxMarkingMessage } from '../../platform/sandbox-marking.ts';
import { type FontFace, type FontWeight, type TextDirection, textRuns } from './fonts.ts';
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

/**
 * The table's columns from the start of a line (the left, or the right in Arabic); their
 * widths add up to A4's width inside the margins. `align` is the start or the end.
 */
const columns = [
  { widthPt: 70, align: 'start' },
  { widthPt: 80, align: 'start' },
  { widthPt: 155, align: 'start' },
  { widthPt: 95, align: 'end' },
  { widthPt: 95, align: 'end' },
] as const;

function columnHeaders(t: Translator): string[] {
  return [t('Date'), t('Type'), t('Description'), t('Amount'), t('Balance')];
}

/**
 * How the statement writes, in the customer's language (ADR 055): its words, the locale of
 * its dates and amounts, and the direction of its lines.
 */
type Writing = { language: Language; t: Translator; locale: string; direction: TextDirection };

function writingIn(language: Language): Writing {
  return {
    language,
    t: translatorFor(language),
    locale: intlLocaleOf(language),
    direction: directionOf(language),
  };
}

/** Dates and times as the statement writes them, in the customer's zone. */
function zonedFormats(timeZone: string, writing: Writing) {
  const { locale } = writing;
  return {
    date: dateTimeFormatOf(locale, { dateStyle: 'medium', timeZone }),
    dateTime: dateTimeFormatOf(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone }),
  };
}

/**
 * Composed characters, plain spaces (Intl's narrow ones too), no control characters. The
 * directional marks and isolates stay: the bidirectional algorithm reads them (fonts.ts).
 */
function pdfText(text: string): string {
  return text
    .normalize('NFC')
    .replace(/\p{Zs}/gu, ' ')
    .replace(/[\p{Cc}]|(?![\u200e\u200f\u2066-\u2069])\p{Cf}/gu, '');
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

type TextStyle = { weight: FontWeight; sizePt: number; direction?: TextDirection };
type TextOptions = PDFKit.Mixins.TextOptions;

/**
 * Writes text in the bundled fonts, whatever its script: one run per font file, joined
 * with pdfkit's `continued`, so "Łukasz 山田 Ωmega" flows and wraps as one text. At `at`,
 * or where the text flow is. A right-to-left line is written from the right instead.
 */
function writeText(
  doc: Pdf,
  text: string,
  style: TextStyle,
  options: TextOptions = {},
  at?: { x: number; y: number },
): void {
  if (style.direction === 'rtl') {
    writeRightToLeft(doc, text, style, options, at);
    return;
  }
  const runs = textRuns(pdfText(text), style.weight);
  // pdfkit aligns each `continued` run on its own: a right-aligned heading whose characters
  // are in two font files ("金額") would print its runs over each other. One line, laid out.
  if (runs.length > 1 && options.align === 'right') {
    writeOneLine(doc, runs, style, options, at);
    return;
  }
  runs.forEach((run, index) => {
    useFace(doc, run.face, style.sizePt);
    const runOptions = { ...options, continued: index < runs.length - 1 || options.continued };
    if (index === 0 && at) doc.text(run.text, at.x, at.y, runOptions);
    else doc.text(run.text, runOptions);
  });
}

/** Noto Sans's ascent, in ems (its hhea ascender, 1069 of 1000 units). */
const notoSansAscent = 1.069;

/**
 * One right-to-left line, its runs placed from the right edge of its box (`align: 'left'`,
 * the end of an Arabic line, puts it on the left instead). pdfkit wraps and aligns only left to
 * right, so the line is laid out here and not wrapped: the statement's cells and labels
 * are short.
 */
function writeRightToLeft(
  doc: Pdf,
  text: string,
  style: TextStyle,
  options: TextOptions,
  at?: { x: number; y: number },
): void {
  writeOneLine(doc, textRuns(pdfText(text), style.weight, 'rtl'), style, options, at);
}

/** Runs in the order they are seen, on one line, at the start or the end (`align`) of the box. */
function writeOneLine(
  doc: Pdf,
  textRunsInOrder: ReturnType<typeof textRuns>,
  style: TextStyle,
  options: TextOptions,
  at?: { x: number; y: number },
): void {
  const left = at?.x ?? doc.x;
  const top = at?.y ?? doc.y;
  const boxWidthPt = options.width ?? doc.page.width - marginPt - left;
  const runs = textRunsInOrder.map((run) => {
    useFace(doc, run.face, style.sizePt);
    return { ...run, widthPt: doc.widthOfString(run.text) };
  });
  const lineWidthPt = runs.reduce((sum, run) => sum + run.widthPt, 0);
  let x = options.align === 'left' ? left : left + boxWidthPt - lineWidthPt;
  // Every run on one baseline, where Noto Sans puts it: each face has its own ascent, and
  // pdfkit would hang each run from its top.
  const baselineY = top + notoSansAscent * style.sizePt;
  let lineHeightPt = 0;
  for (const run of runs) {
    useFace(doc, run.face, style.sizePt);
    doc.text(run.text, x, baselineY, { lineBreak: false, baseline: 'alphabetic' });
    lineHeightPt = Math.max(lineHeightPt, doc.currentLineHeight(true));
    x += run.widthPt;
  }
  doc.x = marginPt;
  doc.y = top + lineHeightPt;
}

/** Sets the font for measuring text the statement writes (Latin text, figures). */
function useStyle(doc: Pdf, style: TextStyle): void {
  const [first] = textRuns('0', style.weight);
  if (first) useFace(doc, first.face, style.sizePt);
}

const body: TextStyle = { weight: 'regular', sizePt: bodySizePt };

/** A calendar day ("2026-11-01") as words; a date has no zone, so UTC keeps it the same day. */
function dayText(isoDate: string, writing: Writing): string {
  return dateTimeFormatOf(writing.locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(`${isoDate}T00:00:00.000Z`),
  );
}

/** Left to right inside a right-to-left line: the amount reads as it is written. */
function isolated(text: string, writing: Writing): string {
  return writing.direction === 'rtl' ? `\u2066${text}\u2069` : text;
}

function moneyText(
  source: StatementSource,
  writing: Writing,
  amountMinor: bigint,
  isSigned = false,
): string {
  const text = formatMoney(
    { amountMinor, currency: source.account.currency },
    {
      locale: writing.locale,
      currencyDisplay: 'code',
      signDisplay: isSigned ? 'exceptZero' : 'auto',
    },
  );
  return isolated(text, writing);
}

function bottomPt(doc: Pdf): number {
  return doc.page.height - marginPt;
}

/**
 * Writes one row of cells at the current height and moves below the tallest. In Arabic
 * the first column is on the right, and each cell's start is its right edge.
 */
function writeRow(
  doc: Pdf,
  cells: readonly string[],
  weight: FontWeight,
  direction: TextDirection,
): void {
  const top = doc.y;
  const isRightToLeft = direction === 'rtl';
  let x = isRightToLeft ? doc.page.width - marginPt : marginPt;
  let heightPt = 0;
  cells.forEach((cell, index) => {
    const column = columns[index];
    if (!column) return;
    if (isRightToLeft) x -= column.widthPt;
    const isStartLeft = (column.align === 'start') !== isRightToLeft;
    const align: 'left' | 'right' = isStartLeft ? 'left' : 'right';
    const options = { width: column.widthPt - cellGapPt, align };
    const cellX = isRightToLeft ? x + cellGapPt : x;
    writeText(doc, cell, { weight, sizePt: bodySizePt, direction }, options, { x: cellX, y: top });
    heightPt = Math.max(heightPt, doc.y - top);
    if (!isRightToLeft) x += column.widthPt;
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

function writeTableHeader(doc: Pdf, writing: Writing): void {
  writeRow(doc, columnHeaders(writing.t), 'bold', writing.direction);
  const lineY = doc.y - 2;
  doc
    .moveTo(marginPt, lineY)
    .lineTo(doc.page.width - marginPt, lineY)
    .lineWidth(0.5)
    .strokeColor('#888888')
    .stroke();
  doc.y += 2;
}

/** "Label: value", the label bold; in Arabic one line from the right, the label first. */
function writeLabelled(doc: Pdf, writing: Writing, label: string, value: string): void {
  if (writing.direction === 'rtl') {
    writeText(doc, `${label}: ${value}`, { weight: 'regular', sizePt: 10, direction: 'rtl' });
    return;
  }
  writeText(doc, `${label}: `, { weight: 'bold', sizePt: 10 }, { continued: true });
  writeText(doc, value, { weight: 'regular', sizePt: 10 });
}

function writeHeading(
  doc: Pdf,
  source: StatementSource,
  writing: Writing,
  institutionName: string,
): void {
  const { account, period } = source;
  const { t, direction } = writing;
  writeText(doc, institutionName, { weight: 'bold', sizePt: 18, direction });
  writeText(doc, t('Account statement'), { weight: 'regular', sizePt: 13, direction });
  doc.moveDown();
  writeLabelled(doc, writing, t('Account holder'), account.holderName);
  writeLabelled(doc, writing, t('Account number'), isolated(account.accountNumber, writing));
  if (account.iban) {
    const iban = friendlyFormatIBAN(account.iban) ?? account.iban;
    writeLabelled(doc, writing, t('IBAN'), isolated(iban, writing));
  }
  writeLabelled(doc, writing, t('Currency'), account.currency);
  const { timeZone } = account;
  const from = dayText(period.from, writing);
  const to = dayText(period.to, writing);
  writeLabelled(
    doc,
    writing,
    t('Period'),
    t('{from} to {to} ({timeZone})', { from, to, timeZone }),
  );
  const produced = zonedFormats(timeZone, writing).dateTime.format(new Date());
  writeLabelled(doc, writing, t('Produced'), `${produced} (${timeZone})`);
  doc.moveDown();
  writeLabelled(
    doc,
    writing,
    t('Opening balance'),
    moneyText(source, writing, source.openingBalanceMinor),
  );
  doc.moveDown();
}

const sandboxRed = '#c92a2a';
const watermarkSizePt = 32;
const watermarkAngleDeg = -35;

/**
 * Marks the current page as a sandbox's, in the statement's language: a red line above the
 * content and the same words across the page, faint, under it. Drawn when the page starts,
 * so every page has it, however the statement breaks. The text flow continues where it
 * was, in the body font (every writer sets its own font; one that does not writes in the
 * body's).
 */
function markSandboxPage(doc: Pdf, writing: Writing): void {
  const { x, y } = doc;
  const marking = writing.t(sandboxMarkingMessage);
  const { direction } = writing;
  const centre = { x: doc.page.width / 2, y: doc.page.height / 2 };
  doc.save();
  doc.rotate(watermarkAngleDeg, { origin: [centre.x, centre.y] });
  doc.fillColor(sandboxRed, 0.12);
  // Slanted across the page, it stays inside the margins however long the words are.
  const contentWidthPt = doc.page.width - 2 * marginPt;
  const watermarkWidthMaxPt = contentWidthPt / Math.cos((watermarkAngleDeg * Math.PI) / 180);
  writeCentredLine(
    doc,
    marking,
    { weight: 'bold', sizePt: watermarkSizePt, direction },
    centre,
    watermarkWidthMaxPt,
  );
  doc.restore();
  doc.fillColor(sandboxRed, 1);
  const markingSizePt = 11;
  writeCentredLine(
    doc,
    marking,
    { weight: 'bold', sizePt: markingSizePt, direction },
    { x: centre.x, y: marginPt / 2 - 4 + markingSizePt / 2 },
    contentWidthPt,
  );
  useStyle(doc, body);
  doc.fillColor('black', 1);
  doc.x = x;
  doc.y = y;
}

/**
 * One line centred on `centre`, in the fonts its scripts need, in its direction's order;
 * a line longer than `widthMaxPt` (a Japanese marking is) is written smaller to fit.
 */
function writeCentredLine(
  doc: Pdf,
  text: string,
  style: TextStyle,
  centre: { x: number; y: number },
  widthMaxPt: number,
): void {
  const runs = textRuns(pdfText(text), style.weight, style.direction);
  const widthAt = (sizePt: number) =>
    runs.reduce((sum, run) => {
      useFace(doc, run.face, sizePt);
      return sum + doc.widthOfString(run.text);
    }, 0);
  const fullWidthPt = widthAt(style.sizePt);
  const sizePt =
    fullWidthPt > widthMaxPt ? (style.sizePt * widthMaxPt) / fullWidthPt : style.sizePt;
  const widthPt = widthAt(sizePt);
  writeOneLine(
    doc,
    runs,
    { ...style, sizePt },
    { width: widthPt, align: 'left' },
    { x: centre.x - widthPt / 2, y: centre.y - sizePt / 2 },
  );
}

/** A continuation page repeats who and when, and the table's header. */
function startNextPage(
  doc: Pdf,
  source: StatementSource,
  writing: Writing,
  pageNumber: number,
): void {
  doc.addPage();
  doc.fillColor('#555555');
  const header = writing.t('Account statement {accountNumber}, {from} to {to}, page {pageNumber}', {
    accountNumber: isolated(source.account.accountNumber, writing),
    from: dayText(source.period.from, writing),
    to: dayText(source.period.to, writing),
    pageNumber,
  });
  writeText(doc, header, { weight: 'regular', sizePt: 8, direction: writing.direction });
  doc.fillColor('black').moveDown();
  writeTableHeader(doc, writing);
}

function lineCells(
  source: StatementSource,
  writing: Writing,
  line: StatementLine,
  lineDate: Intl.DateTimeFormat,
): string[] {
  return [
    lineDate.format(line.createdAt),
    translateText(writing.language, entryKindLabels[line.kind]),
    line.description,
    moneyText(source, writing, line.amountMinor, true),
    moneyText(source, writing, line.balanceAfterMinor),
  ];
}

function writeSummary(
  doc: Pdf,
  source: StatementSource,
  writing: Writing,
  totals: StatementTotals,
): void {
  const { t, direction } = writing;
  if (doc.y + 90 > bottomPt(doc)) doc.addPage();
  doc.moveDown();
  if (totals.entryCount === 0) {
    writeText(doc, t('No transactions in this period.'), {
      weight: 'regular',
      sizePt: 10,
      direction,
    });
    doc.moveDown();
  }
  const money = (amountMinor: bigint) => moneyText(source, writing, amountMinor);
  writeLabelled(doc, writing, t('Money in'), money(totals.moneyInMinor));
  writeLabelled(doc, writing, t('Money out'), money(totals.moneyOutMinor));
  writeLabelled(doc, writing, t('Closing balance'), money(totals.closingBalanceMinor));
}

async function writeStatement(
  doc: Pdf,
  source: StatementSource,
  writing: Writing,
  institutionName: string,
): Promise<void> {
  writeHeading(doc, source, writing, institutionName);
  writeTableHeader(doc, writing);
  const totals = emptyTotals(source);
  const lineDate = zonedFormats(source.account.timeZone, writing).date;
  let pageNumber = 1;
  for await (const page of source.pages()) {
    for (const line of page) {
      addToTotals(totals, line);
      const cells = lineCells(source, writing, line, lineDate);
      if (doc.y + rowHeightPt(doc, cells) > bottomPt(doc)) {
        pageNumber += 1;
        startNextPage(doc, source, writing, pageNumber);
      }
      writeRow(doc, cells, 'regular', writing.direction);
    }
  }
  writeSummary(doc, source, writing, totals);
}

/**
 * The statement as a PDF, streamed: pages are written out as they fill, while the lines
 * are still being read, so a long statement never sits whole in memory.
 */
export function statementPdf(
  source: StatementSource,
  options: { institutionName: string; isSandbox: boolean; language: Language },
): Readable {
  const { institutionName, isSandbox } = options;
  const writing = writingIn(options.language);
  const { from, to } = source.period;
  const title = writing.t('Account statement {from} to {to}', { from, to });
  const doc = new PDFDocument({
    size: 'A4',
    margin: marginPt,
    info: {
      Title: isSandbox ? `${writing.t(sandboxMarkingMessage)}: ${title}` : title,
      Author: institutionName,
    },
  });
  if (isSandbox) {
    markSandboxPage(doc, writing);
    doc.on('pageAdded', () => markSandboxPage(doc, writing));
  }
  writeStatement(doc, source, writing, institutionName).then(
    () => doc.end(),
    (error: unknown) => doc.destroy(error instanceof Error ? error : new Error(String(error))),
  );
  return doc;
}
