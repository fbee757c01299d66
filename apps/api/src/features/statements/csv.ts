import { entryKindLabels } from '@coffer/contracts/ledger';
import { toDecimalString } from '@coffer/contracts/money';
import { sandboxMarking } from '../../platform/sandbox-marking.ts';
import { addToTotals, emptyTotals, type StatementSource } from './service.ts';

const plainNumber = /^-?\d+(\.\d+)?$/;
/** A spreadsheet reads a cell starting with one of these as a formula (CSV injection). */
const formulaStart = /^[=+\-@\t\r]/;
/**
 * A reader that splits lines on something other than a comma (a semicolon, in locales that
 * write decimals with a comma; a tab; a line break) starts a cell after it, ignoring our
 * quotes when the field is not the line's first: a formula character there (behind any
 * quotes) would start a formula.
 */
const formulaAfterSeparator = /([;\t\r\n])(?="*[=+\-@\t\r])/g;

/**
 * One RFC 4180 field. Text that a spreadsheet would run as a formula gets a leading
 * apostrophe (OWASP's advice), at its start and after any separator another reader splits
 * on; our own amounts ("-45.20") are plain numbers and stay so. A field holding such a
 * separator is quoted, so that a reader honouring quotes keeps it one cell.
 */
export function csvField(value: string): string {
  const startSafe = formulaStart.test(value) && !plainNumber.test(value) ? `'${value}` : value;
  const safe = startSafe.replaceAll(formulaAfterSeparator, "$1'");
  return /[",;\t\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

function csvRow(fields: string[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

/** "2026-11-03 14:22:05": the form spreadsheets read as a date and time. */
function utcDateTime(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * The statement as CSV, a row at a time: a header, the opening balance, every entry with
 * the balance after it, and the closing balance. Amounts are exact decimals. A sandbox's
 * statement starts with a line of its own saying so.
 */
export async function* statementCsv(
  source: StatementSource,
  options: { isSandbox: boolean },
): AsyncGenerator<string> {
  const { currency } = source.account;
  const amount = (amountMinor: bigint) => toDecimalString(amountMinor, currency);
  if (options.isSandbox) yield csvRow([sandboxMarking]);
  yield csvRow(['Date (UTC)', 'Type', 'Description', 'Amount', 'Currency', 'Balance']);
  yield csvRow([
    source.period.from,
    'Opening balance',
    '',
    '',
    currency,
    amount(source.openingBalanceMinor),
  ]);
  const totals = emptyTotals(source);
  for await (const page of source.pages()) {
    let chunk = '';
    for (const line of page) {
      addToTotals(totals, line);
      chunk += csvRow([
        utcDateTime(line.createdAt),
        entryKindLabels[line.kind],
        line.description,
        amount(line.amountMinor),
        currency,
        amount(line.balanceAfterMinor),
      ]);
    }
    yield chunk;
  }
  yield csvRow([
    source.period.to,
    'Closing balance',
    '',
    '',
    currency,
    amount(totals.closingBalanceMinor),
  ]);
}
