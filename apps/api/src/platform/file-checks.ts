import type { CurrencyCode } from '@coffer/contracts/currencies';
import { isCurrencyCode } from '@coffer/contracts/currencies';
import { MoneyParseError, parseAmount } from '@coffer/contracts/money';
import { CsvError, parse } from 'csv-parse/sync';
import { AppError } from './app-error.ts';
import { formulaStart } from './csv.ts';

/**
 * The checks every uploaded file gets (issue #30 item 7, issue #32 item 3): a refusal names
 * the line and column, and nothing of the file is used. Payment files stop at the first
 * problem (`refuse`); a bulk payment file lists them all (`FileProblems`).
 */

/**
 * What a refused file's problems come to: a whole sentence per case, so that each is a
 * message its translation can word its own way (ADR 055). The first five lines are named.
 */
function fileProblemsMessage(count: number, lines: number[], leftOut: number): string {
  const line = lines[0] ?? 0;
  const lineNumbers = lines.slice(0, 5).join(', ');
  if (count === 1) return `The file has 1 problem on line ${line}. Nothing was paid.`;
  if (lines.length === 1) {
    return `The file has ${count} problems on line ${line}. Nothing was paid.`;
  }
  if (lines.length <= 5) {
    return `The file has ${count} problems on lines ${lineNumbers}. Nothing was paid.`;
  }
  if (leftOut === 0) {
    return `The file has ${count} problems on lines ${lineNumbers} and others. Nothing was paid.`;
  }
  return `The file has ${count} problems on lines ${lineNumbers} and others (${leftOut} more not listed). Nothing was paid.`;
}

/** A cell a spreadsheet would run as a formula: the pattern our CSV writer escapes too. */
export { formulaStart };

export function refuse(place: string, problem: string): never {
  throw new AppError('file_refused', {
    message: `${place}: ${problem}. Nothing was imported.`,
  });
}

const utf8ByteOrderMark = [0xef, 0xbb, 0xbf];

function startsWithUtf8Bom(bytes: Buffer): boolean {
  return utf8ByteOrderMark.every((byte, index) => bytes[index] === byte);
}

/**
 * UTF-8 text of the file, refusing bytes that are not UTF-8 and, unless `isBomAccepted`
 * (Excel writes one), a byte-order mark; a UTF-16 mark is always refused.
 */
export function decoded(bytes: Buffer, options: { isBomAccepted?: boolean } = {}): string {
  const hasUtf16Bom =
    (bytes[0] === 0xfe && bytes[1] === 0xff) || (bytes[0] === 0xff && bytes[1] === 0xfe);
  const hasBom = hasUtf16Bom || startsWithUtf8Bom(bytes);
  if (hasBom && !(options.isBomAccepted && !hasUtf16Bom)) {
    refuse(
      'line 1, column 1',
      hasUtf16Bom
        ? 'the file is UTF-16 text; save it as UTF-8'
        : 'the file starts with a byte-order mark; save it as UTF-8 without one',
    );
  }
  const text = hasBom ? bytes.subarray(utf8ByteOrderMark.length) : bytes;
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(text);
  } catch {
    return refuse('line 1, column 1', 'the file is not UTF-8 text');
  }
}

/** Why a typed amount is refused, or its minor units in `currency`. */
export function amountOrProblem(
  text: string,
  currency: CurrencyCode,
): { amountMinor: bigint } | { problem: string } {
  try {
    const negated = /^\s*-/.exec(text);
    const amountMinor = parseAmount(negated ? text.replace('-', '') : text, currency);
    if (negated && amountMinor > 0n) return { problem: 'the amount is negative' };
    if (amountMinor === 0n) return { problem: 'the amount is zero' };
    return { amountMinor };
  } catch (error) {
    if (!(error instanceof MoneyParseError)) throw error;
    return { problem: `the amount "${text.slice(0, 30)}" is refused: ${error.message}` };
  }
}

/** A positive amount in a known currency, with no more decimals than the currency has. */
export function positiveAmount(
  text: string,
  currency: string,
  place: string,
): { amountMinor: bigint; currency: CurrencyCode } {
  if (!isCurrencyCode(currency))
    refuse(place, `"${currency.slice(0, 10)}" is not a known currency`);
  const amount = amountOrProblem(text, currency);
  if ('problem' in amount) return refuse(place, amount.problem);
  return { amountMinor: amount.amountMinor, currency };
}

/** One record of a CSV file and the line it ended on (the line a spreadsheet shows). */
export type CsvRecord = { cells: string[]; line: number };

/**
 * The file's records up to line `lastLine` (read beyond what a file may hold, so that the
 * caller can name the line past the last, without reading a huge file whole). Windows line
 * ends are read as any other; a file that is not CSV at all is refused naming where it broke.
 */
export function csvRecords(text: string, lastLine: number): CsvRecord[] {
  try {
    // With `info`, each record comes with where it ended (csv-parse's types do not say so).
    const records = parse(text, {
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      to_line: lastLine,
    }) as unknown as { record: string[]; info: { lines: number } }[];
    return records.map(({ record, info }) => ({ cells: record, line: info.lines }));
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const line = typeof error.lines === 'number' ? error.lines : 1;
    return refuse(`line ${line}, column 1`, `not a CSV file (${error.message.slice(0, 120)})`);
  }
}

/**
 * Every problem of a file, by line: a customer fixing a file of thousands of lines sees
 * them all at once instead of one per upload. Refused as `file_refused`, whose `fields`
 * map "line 7" to that line's problems, each with its column.
 */
export class FileProblems {
  private readonly byLine = new Map<number, string[]>();
  private count = 0;

  constructor(private readonly listedMax: number) {}

  add(line: number, column: string, problem: string): void {
    this.count += 1;
    if (this.byLine.size >= this.listedMax && !this.byLine.has(line)) return;
    const problems = this.byLine.get(line) ?? [];
    problems.push(`${column}: ${problem}`);
    this.byLine.set(line, problems);
  }

  hasLine(line: number): boolean {
    return this.byLine.has(line);
  }

  get isEmpty(): boolean {
    return this.count === 0;
  }

  /** Refuses the file, listing every problem, when there is one. */
  refuseIfAny(): void {
    if (this.isEmpty) return;
    const lines = [...this.byLine.keys()].sort((a, b) => a - b);
    const fields = Object.fromEntries(
      lines.map((line) => [`line ${line}`, (this.byLine.get(line) ?? []).join('; ')]),
    );
    const leftOut = this.count - [...this.byLine.values()].reduce((n, p) => n + p.length, 0);
    throw new AppError('file_refused', {
      message: fileProblemsMessage(this.count, lines, leftOut),
      fields,
    });
  }
}
