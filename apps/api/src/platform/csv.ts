import { dateTimeFormatOf } from '@coffer/contracts/time-zones';

const plainNumber = /^-?\d+(\.\d+)?$/;
const decimalCommaNumber = /^-?\d+,\d+$/;
/** A spreadsheet reads a cell starting with one of these as a formula (CSV injection). */
export const formulaStart = /^[=+\-@\t\r]/;
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
export function csvField(value: string, separator: ',' | ';' = ','): string {
  // An amount with a decimal comma, in a file whose fields a semicolon separates.
  if (separator === ';' && decimalCommaNumber.test(value)) return value;
  const startSafe = formulaStart.test(value) && !plainNumber.test(value) ? `'${value}` : value;
  const safe = startSafe.replaceAll(formulaAfterSeparator, "$1'");
  return /[",;\t\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/**
 * One CSV line of escaped fields, ended as RFC 4180 says. `separator`: a semicolon where
 * the reader's locale writes decimals with a comma (`csvSeparatorOf`).
 */
export function csvRow(fields: string[], separator: ',' | ';' = ','): string {
  return `${fields.map((field) => csvField(field, separator)).join(separator)}\r\n`;
}

/**
 * The separator a spreadsheet in `locale` expects: where its decimal mark is a comma
 * (German), Excel and LibreOffice split on semicolons, and the amounts use the comma.
 */
export function csvSeparatorOf(locale: string): { separator: ',' | ';'; decimalMark: string } {
  const decimalMark =
    new Intl.NumberFormat(locale).formatToParts(1.5).find((part) => part.type === 'decimal')
      ?.value ?? '.';
  return { separator: decimalMark === ',' ? ';' : ',', decimalMark };
}

/** "2026-11-03 14:22:05": the form spreadsheets read as a date and time (UTC). */
export function utcDateTime(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

/** Spreadsheets read a CSV that starts with it as UTF-8, whatever the computer's code page. */
export const utf8ByteOrderMark = '\uFEFF';

/** "2026-11-03 23:22:05" in `timeZone` (an IANA zone checked when it was stored). */
export function zonedDateTime(date: Date, timeZone: string): string {
  // sv-SE writes "2026-11-03 23:22:05", the form spreadsheets read as a date and time.
  return dateTimeFormatOf('sv-SE', {
    timeZone,
    dateStyle: 'short',
    timeStyle: 'medium',
  }).format(date);
}
