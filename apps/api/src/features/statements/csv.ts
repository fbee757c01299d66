import { entryKindLabels } from '@coffer/contracts/ledger';
import { toDecimalString } from '@coffer/contracts/money';
import { csvRow, utf8ByteOrderMark, zonedDateTime } from '../../platform/csv.ts';
import { sandboxMarking } from '../../platform/sandbox-marking.ts';
import { addToTotals, emptyTotals, type StatementSource } from './service.ts';

/**
 * The statement as CSV, a row at a time: a header, the opening balance, every entry with
 * the balance after it, and the closing balance. Amounts are exact decimals; times are in
 * the customer's zone, which the header names. A byte-order mark comes first, so that
 * spreadsheets read the file as UTF-8 (accents, yen signs). A sandbox's statement starts
 * with a line of its own saying so.
 */
export async function* statementCsv(
  source: StatementSource,
  options: { isSandbox: boolean },
): AsyncGenerator<string> {
  const { currency } = source.account;
  const { timeZone } = source.account;
  const amount = (amountMinor: bigint) => toDecimalString(amountMinor, currency);
  yield utf8ByteOrderMark;
  if (options.isSandbox) yield csvRow([sandboxMarking]);
  yield csvRow([`Date (${timeZone})`, 'Type', 'Description', 'Amount', 'Currency', 'Balance']);
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
        zonedDateTime(line.createdAt, timeZone),
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
