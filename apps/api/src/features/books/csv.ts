import type { GlMap, TrialBalance } from '@coffer/contracts/books';
import { toCurrencyCode } from '@coffer/contracts/currencies';
import { entryKindLabels } from '@coffer/contracts/ledger';
import { toDecimalString } from '@coffer/contracts/money';
import type { Queryable } from '../../db/client.ts';
import { csvRow, utcDateTime } from '../../platform/csv.ts';
import { type ExportCursor, exportPage } from './queries.ts';

/** Entries per page of the export: a page's lines are a few hundred kilobytes of text at most. */
export const exportEntriesPerPage = 2_000;

const decimal = (amountMinor: bigint, currency: string) =>
  toDecimalString(amountMinor, toCurrencyCode(currency));

/** The trial balance as CSV: a row per currency and GL code, then each currency's totals. */
export function trialBalanceCsv(balance: TrialBalance): string {
  let csv = csvRow([`Trial balance ${balance.date} (${balance.timeZone}), ${balance.status}`]);
  csv += csvRow(['Currency', 'GL code', 'GL name', 'Opening', 'Debits', 'Credits', 'Closing']);
  for (const section of balance.currencies) {
    const amount = (minor: bigint) => decimal(minor, section.currency);
    for (const row of section.rows) {
      csv += csvRow([
        section.currency,
        row.glCode,
        row.glName,
        amount(row.openingMinor),
        amount(row.debitsMinor),
        amount(row.creditsMinor),
        amount(row.closingMinor),
      ]);
    }
    csv += csvRow([
      section.currency,
      '',
      'Total',
      '',
      amount(section.totalDebitsMinor),
      amount(section.totalCreditsMinor),
      '',
    ]);
  }
  return csv;
}

/**
 * The journal lines of entries made in [from, to) as CSV, a page at a time: the reply is
 * written as pages arrive, so memory stays the same for ten lines or ten million.
 */
export async function* journalCsv(
  db: Queryable,
  range: { from: Date; to: Date },
  glMap: GlMap,
): AsyncGenerator<string> {
  yield csvRow([
    'Entry id',
    'Time (UTC)',
    'Kind',
    'GL code',
    'GL name',
    'Account',
    'Debit',
    'Credit',
    'Currency',
    'Reference',
  ]);
  let cursor: ExportCursor | null = null;
  do {
    const page = await exportPage(db, range, cursor, exportEntriesPerPage);
    let chunk = '';
    for (const line of page.lines) {
      const gl = glMap[line.accountKind];
      const isDebit = line.amountMinor < 0n;
      const magnitude = decimal(isDebit ? -line.amountMinor : line.amountMinor, line.currency);
      chunk += csvRow([
        line.entryId,
        utcDateTime(line.createdAt),
        entryKindLabels[line.kind],
        gl.code,
        gl.name,
        line.accountNumber,
        isDebit ? magnitude : '',
        isDebit ? '' : magnitude,
        line.currency,
        line.memo,
      ]);
    }
    if (chunk) yield chunk;
    cursor = page.next;
  } while (cursor);
}
