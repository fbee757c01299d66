import type { Readable } from 'node:stream';
import { directionOf, intlLocaleOf, type Language } from '@coffer/contracts/languages';
import { entryKindLabels } from '@coffer/contracts/ledger';
import { formatMoney } from '@coffer/contracts/money';
import { dateTimeFormatOf } from '@coffer/contracts/time-zones';
import { friendlyFormatIBAN } from 'ibantools';
import PDFDocument from 'pdfkit';
import { type Translator, translateText, translatorFor } from '../../platform/i18n.ts';
import { sandboxMarkingMessage } from '../../platform/sandbox-marking.ts';
import {
  type FontFace,
  type FontWeight,
  type RunsWidth,
  type TextDirection,
  type TextRun,
  textLines,
  textRuns,
} from './fonts.ts';
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
 * or where the text flow is. A right-to-left text is laid out here instead (`writeLines`).
 */
function writeText(
  doc: Pdf,
  text: string,
  style: TextStyle,
  options: TextOptions = {},
  at?: { x: number; y: number },
): void {
  const runs = textRuns(pdfText(text), style.weight);
  // pdfkit aligns each `continued` run on its own: a right-aligned heading whose characters
  // are in two font files ("金額") would print its runs over each other. Laid out here too.
  if (style.direction === 'rtl' || (runs.length > 1 && options.align === 'right')) {
    writeLines(doc, text, style, options, at);
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
/** A line's height, in ems: Noto Sans's ascent and descent (1.069 + 0.293) and some leading. */
const lineHeightEm = 1.4;

type MeasuredRun = TextRun & { widthPt: number };
type LaidOutLine = { runs: MeasuredRun[]; widthPt: number };
/** Text wrapped into lines, each line's runs in the order they are seen from the left. */
type TextBlock = { style: TextStyle; lines: LaidOutLine[]; heightPt: number };
type BlockAlign = 'left' | 'right' | 'center';

function runsWidthIn(doc: Pdf, sizePt: number): RunsWidth {
  return (runs) =>
    runs.reduce((sumPt, run) => {
      useFace(doc, run.face, sizePt);
      return sumPt + doc.widthOfString(run.text);
    }, 0);
}

/**
 * The text wrapped to `widthPt` (fonts.ts `textLines`: breaks on the logical text, each line
 * then in visual order, right to left in Arabic), measured in this document's fonts.
 */
function layOutText(doc: Pdf, text: string, style: TextStyle, widthPt: number): TextBlock {
  const widthOf = runsWidthIn(doc, style.sizePt);
  const lines = textLines(pdfText(text), style.weight, style.direction ?? 'ltr', widthPt, widthOf)
    .map((runs) => runs.map((run) => ({ ...run, widthPt: widthOf([run]) })))
    .map((runs) => ({ runs, widthPt: runs.reduce((sumPt, run) => sumPt + run.widthPt, 0) }));
  return { style, lines, heightPt: lines.length * lineHeightEm * style.sizePt };
}

/**
 * Draws laid-out lines in a box from its top: each line at the box's left, right or centre,
 * its runs side by side on one baseline, where Noto Sans puts it (each face has its own
 * ascent, and pdfkit would hang each run from its top).
 */
function drawText(
  doc: Pdf,
  block: TextBlock,
  box: { x: number; y: number; widthPt: number; align: BlockAlign },
): void {
  const { sizePt } = block.style;
  block.lines.forEach((line, index) => {
    const freePt = box.widthPt - line.widthPt;
    let x = box.x + (box.align === 'left' ? 0 : box.align === 'right' ? freePt : freePt / 2);
    const baselineY = box.y + (index * lineHeightEm + notoSansAscent) * sizePt;
    for (const run of line.runs) {
      useFace(doc, run.face, sizePt);
      doc.text(run.text, x, baselineY, { lineBreak: false, baseline: 'alphabetic' });
      x += run.widthPt;
    }
  });
}

/**
 * Text laid out here rather than by pdfkit, which wraps and aligns only left to right:
 * wrapped to its box (one line when `lineBreak` is false), from the box's right, the start
 * of a right-to-left line (`align: 'left'`, the end of an Arabic line, puts it on the left).
 */
function writeLines(
  doc: Pdf,
  text: string,
  style: TextStyle,
  options: TextOptions,
  at?: { x: number; y: number },
): void {
  const x = at?.x ?? doc.x;
  const y = at?.y ?? doc.y;
  const widthPt = options.width ?? doc.page.width - marginPt - x;
  const block = layOutText(doc, text, style, options.lineBreak === false ? Infinity : widthPt);
  const align = options.align === 'left' || options.align === 'center' ? options.align : 'right';
  drawText(doc, block, { x, y, widthPt, align });
  doc.x = marginPt;
  doc.y = y + block.heightPt;
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

/** A row's cells laid out in their columns; the row is as tall as its tallest cell. */
type TableRow = {
  cells: { block: TextBlock; x: number; widthPt: number; align: BlockAlign }[];
  heightPt: number;
};

/**
 * Lays out one row: every cell wrapped inside its column (less the gap to the next). In
 * Arabic the first column is on the right, and each cell's start is its right edge.
 */
function layOutRow(
  doc: Pdf,
  texts: readonly string[],
  weight: FontWeight,
  direction: TextDirection,
): TableRow {
  const isRightToLeft = direction === 'rtl';
  let x = isRightToLeft ? doc.page.width - marginPt : marginPt;
  const cells = columns.map((column, index) => {
    if (isRightToLeft) x -= column.widthPt;
    const isStartLeft = (column.align === 'start') !== isRightToLeft;
    const widthPt = column.widthPt - cellGapPt;
    const cellX = isRightToLeft ? x + cellGapPt : x;
    if (!isRightToLeft) x += column.widthPt;
    const style = { weight, sizePt: bodySizePt, direction };
    const block = layOutText(doc, texts[index] ?? '', style, widthPt);
    return { block, x: cellX, widthPt, align: isStartLeft ? 'left' : 'right' } as const;
  });
  return { cells, heightPt: Math.max(0, ...cells.map((cell) => cell.block.heightPt)) };
}

/** Draws a row at the current height and moves below it. */
function drawRow(doc: Pdf, row: TableRow): void {
  const top = doc.y;
  for (const { block, x, widthPt, align } of row.cells) {
    drawText(doc, block, { x, y: top, widthPt, align });
  }
  doc.x = marginPt;
  doc.y = top + row.heightPt + 4;
}

function writeTableHeader(doc: Pdf, writing: Writing): void {
  drawRow(doc, layOutRow(doc, columnHeaders(writing.t), 'bold', writing.direction));
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
  const widthOf = (sizePt: number) =>
    layOutText(doc, text, { ...style, sizePt }, Infinity).lines[0]?.widthPt ?? 0;
  const fullWidthPt = widthOf(style.sizePt);
  const sizePt =
    fullWidthPt > widthMaxPt ? (style.sizePt * widthMaxPt) / fullWidthPt : style.sizePt;
  drawText(doc, layOutText(doc, text, { ...style, sizePt }, Infinity), {
    x: centre.x - widthMaxPt / 2,
    y: centre.y - sizePt / 2,
    widthPt: widthMaxPt,
    align: 'center',
  });
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
  const { direction } = writing;
  let pageNumber = 1;
  for await (const page of source.pages()) {
    for (const line of page) {
      addToTotals(totals, line);
      const row = layOutRow(doc, lineCells(source, writing, line, lineDate), 'regular', direction);
      // Pages break between rows: a row is never split, and a memo's 500 characters fit a page.
      if (doc.y + row.heightPt > bottomPt(doc)) {
        pageNumber += 1;
        startNextPage(doc, source, writing, pageNumber);
      }
      drawRow(doc, row);
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
