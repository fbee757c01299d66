import {
  bulkPaymentColumns,
  bulkPaymentLinesMax,
  bulkPaymentReferenceLengthMax,
} from '@coffer/contracts/bulk-payments';
import type { CurrencyCode } from '@coffer/contracts/currencies';
import { recipientSchema } from '@coffer/contracts/recipient';
import { singleLineText } from '@coffer/contracts/text';
import {
  amountOrProblem,
  type CsvRecord,
  csvRecords,
  type FileProblems,
  formulaStart,
  refuse,
} from '../../platform/file-checks.ts';

/**
 * Reading a bulk payment file (docs/decisions/044): its header, then one payment a line.
 * Every problem of every line is collected, not only the first; the recipients are
 * looked up afterwards (service.ts), for the lines that are otherwise right.
 */

/** One payment of the file as typed, its amount parsed in the wallet's currency. */
export type TypedLine = {
  line: number;
  recipient: string;
  amountMinor: bigint;
  reference: string;
};

const referenceSchema = singleLineText({ max: bulkPaymentReferenceLengthMax });
const header = bulkPaymentColumns.join(',');
const semicolonProblem =
  'the file is separated by semicolons; save it as CSV with commas (recipient,amount,reference)';

function checkHeader(first: CsvRecord | undefined): void {
  if (!first) refuse('line 1', `the file is empty; it needs the header line ${header}`);
  if (first.cells.some((cell) => cell.includes(';'))) refuse('line 1', semicolonProblem);
  const cells = first.cells.map((cell) => cell.trim());
  if (cells.join(',') !== header) {
    refuse(
      'line 1',
      `the header must be exactly ${header}; found "${cells.join(',').slice(0, 60)}"`,
    );
  }
}

/** A cell that a spreadsheet would run; an amount such as "-5" is told as negative instead. */
function checkFormulas(record: CsvRecord, problems: FileProblems): void {
  record.cells.forEach((cell, index) => {
    const column = bulkPaymentColumns[index];
    if (column === 'amount' && /^\s*-\s*\d/.test(cell)) return;
    if (formulaStart.test(cell)) {
      problems.add(
        record.line,
        column ?? `column ${index + 1}`,
        `"${cell.slice(0, 20)}" starts like a spreadsheet formula (= + - @)`,
      );
    }
  });
}

function typedLine(
  record: CsvRecord,
  currency: CurrencyCode,
  problems: FileProblems,
): TypedLine | null {
  const { cells, line } = record;
  if (cells.some((cell) => cell.includes(';'))) {
    problems.add(line, 'line', semicolonProblem);
    return null;
  }
  if (cells.length !== bulkPaymentColumns.length) {
    problems.add(line, 'line', `it has ${cells.length} columns; a payment has 3 (${header})`);
    return null;
  }
  checkFormulas(record, problems);
  const [recipientCell = '', amountCell = '', referenceCell = ''] = cells;
  const recipient = recipientSchema.safeParse(recipientCell);
  if (!recipient.success) {
    problems.add(line, 'recipient', recipient.error.issues[0]?.message ?? 'refused');
  }
  const amount = amountOrProblem(amountCell, currency);
  if ('problem' in amount) problems.add(line, 'amount', amount.problem);
  const reference = referenceSchema.safeParse(referenceCell);
  if (!reference.success) {
    problems.add(line, 'reference', reference.error.issues[0]?.message ?? 'refused');
  }
  if (problems.hasLine(line) || !recipient.success || !reference.success || 'problem' in amount) {
    return null;
  }
  return {
    line,
    recipient: recipient.data,
    amountMinor: amount.amountMinor,
    reference: reference.data,
  };
}

/** The key that names a repeated line: same recipient, amount and reference. */
function repeatKey(line: TypedLine): string {
  return [line.recipient.toLowerCase(), line.amountMinor.toString(), line.reference].join('\n');
}

/**
 * The file's payments, with every problem of form collected in `problems`: the header,
 * between 1 and `bulkPaymentLinesMax` lines, three columns, a recipient, a positive amount
 * with no more decimals than `currency` has, a one-line reference, no formula-looking cell
 * and no line twice. A header, an empty file or too many lines refuse the file at once.
 */
export function typedLines(
  text: string,
  currency: CurrencyCode,
  problems: FileProblems,
): TypedLine[] {
  // Two lines past the most a file holds: the header, then the one to name as too many.
  const records = csvRecords(text, bulkPaymentLinesMax + 2);
  const [first, ...rows] = records;
  checkHeader(first);
  if (rows.length === 0) refuse('line 2', 'the file has no payments after its header');
  const beyond = rows[bulkPaymentLinesMax];
  if (beyond) {
    refuse(
      `line ${beyond.line}`,
      `a file holds at most ${bulkPaymentLinesMax.toLocaleString('en')} payments`,
    );
  }
  const seen = new Map<string, number>();
  const lines: TypedLine[] = [];
  for (const record of rows) {
    const typed = typedLine(record, currency, problems);
    if (!typed) continue;
    const earlier = seen.get(repeatKey(typed));
    if (earlier !== undefined) {
      problems.add(
        typed.line,
        'line',
        `it repeats line ${earlier} (same recipient, amount and reference)`,
      );
      continue;
    }
    seen.set(repeatKey(typed), typed.line);
    lines.push(typed);
  }
  return lines;
}
