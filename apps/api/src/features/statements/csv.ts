import { intlLocaleOf, type Language } from '@coffer/contracts/languages';
import { entryKindLabels } from '@coffer/contracts/ledger';
import { toDecimalString } from '@coffer/contracts/money';
import { csvRow, csvSeparatorOf, utf8ByteOrderMark, zonedDateTime } from '../../platform/csv.ts';
import { translateText, translatorFor } from '../../platform/i18n.ts';
import { sandboxMarkingMessage } from '../../platform/sandbox-marking.ts';
import { addToTotals, emptyTotals, type StatementSource } from './service.ts';

/**
 * The statement as CSV, a row at a time: a header, the opening balance, every entry with
 * the balance after it, and the closing balance. Amounts are exact decimals; times are in
 * the customer's zone, which the header names. A byte-order mark comes first, so that
 * spreadsheets read the file as UTF-8 (accents, yen signs). A sandbox's statement starts
 * with a line of its own saying so. The headings and types are in the customer's language,
 * and where it writes decimals with a comma (German) so do the amounts, with semicolons
 * between the fields, as that locale's spreadsheets expect. Dates stay "2026-11-03
 * 14:22:05", which every spreadsheet reads as a date.
 */
export async function* statementCsv(
  source: StatementSource,
  options: { isSandbox: boolean; language: Language },
): AsyncGenerator<string> {
  const { currency } = source.account;
  const { timeZone } = source.account;
  const { language } = options;
  const t = translatorFor(language);
  const { separator, decimalMark } = csvSeparatorOf(intlLocaleOf(language));
  const amount = (amountMinor: bigint) =>
    toDecimalString(amountMinor, currency).replace('.', decimalMark);
  const row = (fields: string[]) => csvRow(fields, separator);
  yield utf8ByteOrderMark;
  if (options.isSandbox) yield row([t(sandboxMarkingMessage)]);
  yield row([
    t('Date ({timeZone})', { timeZone }),
    t('Type'),
    t('Description'),
    t('Amount'),
    t('Currency'),
    t('Balance'),
  ]);
  yield row([
    source.period.from,
    t('Opening balance'),
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
      chunk += row([
        zonedDateTime(line.createdAt, timeZone),
        translateText(language, entryKindLabels[line.kind]),
        line.description,
        amount(line.amountMinor),
        currency,
        amount(line.balanceAfterMinor),
      ]);
    }
    yield chunk;
  }
  yield row([
    source.period.to,
    t('Closing balance'),
    '',
    '',
    currency,
    amount(totals.closingBalanceMinor),
  ]);
}
