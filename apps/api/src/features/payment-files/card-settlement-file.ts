import type { CurrencyCode } from '@coffer/contracts/currencies';
import { isCurrencyCode, toCurrencyCode } from '@coffer/contracts/currencies';
import { toDecimalString } from '@coffer/contracts/money';
import { cardSettlementColumns, cardSettlementLinesMax } from '@coffer/contracts/payment-files';
import { csvRow } from '../../platform/csv.ts';
import {
  csvRecords,
  decoded,
  formulaStart,
  positiveAmount,
  refuse,
} from '../../platform/file-checks.ts';

/**
 * The card settlement file (docs/OPERATIONS.md "Card settlement files"): the processor's
 * settlements of one day, a header line of `cardSettlementColumns` and then one line a
 * settlement, comma-separated UTF-8 without a byte-order mark.
 */

export type SettlementType = 'capture' | 'reversal';

export type SettlementLine = {
  /** The file's line, for the messages that name it. */
  line: number;
  settlementId: string;
  authorizationId: string;
  lastFour: string;
  amountMinor: bigint;
  currency: CurrencyCode;
  type: SettlementType;
  settledAt: Date;
};

/** A processor's id: what our issuing endpoints take as a settlement or authorization id. */
const processorId = /^[A-Za-z0-9_.:-]{1,100}$/;
const settledAtPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/;

const columnOf = Object.fromEntries(cardSettlementColumns.map((name, index) => [name, index])) as {
  [name in (typeof cardSettlementColumns)[number]]: number;
};

function placeOf(line: number, column: number): string {
  return `line ${line}, column ${column + 1} (${cardSettlementColumns[column] ?? 'beyond the last'})`;
}

/** Refuses a cell that a spreadsheet would run, or that shows the file split on semicolons. */
function checkCells(cells: string[], line: number): void {
  cells.forEach((cell, column) => {
    if (cell.includes(';')) {
      refuse(
        placeOf(line, column),
        'a semicolon: a settlement file is separated by commas, not semicolons',
      );
    }
    if (formulaStart.test(cell)) {
      refuse(placeOf(line, column), `"${cell.slice(0, 20)}" starts like a spreadsheet formula`);
    }
  });
}

function checkHeader(cells: string[]): void {
  checkCells(cells, 1);
  cardSettlementColumns.forEach((name, column) => {
    if (cells[column] !== name) {
      refuse(
        placeOf(1, column),
        `the header must be ${cardSettlementColumns.join(',')}; found "${(cells[column] ?? '').slice(0, 30)}"`,
      );
    }
  });
  if (cells.length > cardSettlementColumns.length) {
    refuse(placeOf(1, cardSettlementColumns.length), 'the header has more columns than the format');
  }
}

function settlementLine(cells: string[], line: number): SettlementLine {
  checkCells(cells, line);
  if (cells.length !== cardSettlementColumns.length) {
    refuse(
      placeOf(line, Math.min(cells.length, cardSettlementColumns.length)),
      `the line has ${cells.length} columns; a settlement has ${cardSettlementColumns.length}`,
    );
  }
  const cell = (name: keyof typeof columnOf) => cells[columnOf[name]] ?? '';
  for (const name of ['settlement_id', 'authorization_id'] as const) {
    if (!processorId.test(cell(name))) {
      refuse(placeOf(line, columnOf[name]), `${name} must be 1 to 100 letters, digits or _.:-`);
    }
  }
  if (!/^\d{4}$/.test(cell('card_last_four'))) {
    refuse(placeOf(line, columnOf.card_last_four), 'card_last_four must be four digits');
  }
  const currency = cell('currency');
  if (!isCurrencyCode(currency)) {
    refuse(placeOf(line, columnOf.currency), `"${currency.slice(0, 10)}" is not a known currency`);
  }
  const amount = positiveAmount(cell('amount'), currency, placeOf(line, columnOf.amount));
  const type = cell('type');
  if (type !== 'capture' && type !== 'reversal') {
    refuse(placeOf(line, columnOf.type), 'type must be capture or reversal');
  }
  const settledAt = new Date(cell('settled_at'));
  if (!settledAtPattern.test(cell('settled_at')) || Number.isNaN(settledAt.getTime())) {
    refuse(
      placeOf(line, columnOf.settled_at),
      'settled_at must be an ISO 8601 time with its offset, as 2026-11-27T14:05:09Z',
    );
  }
  return {
    line,
    settlementId: cell('settlement_id'),
    authorizationId: cell('authorization_id'),
    lastFour: cell('card_last_four'),
    ...amount,
    type,
    settledAt,
  };
}

/**
 * Reads a card settlement file, checking it whole before anything is imported: UTF-8
 * without a byte-order mark, the header's columns in order, at most
 * `cardSettlementLinesMax` settlements, each with ids, four digits, a positive amount with
 * no more decimals than its known currency has, capture or reversal, and a time; no cell
 * that a spreadsheet would run, no semicolons, no settlement twice. Any refusal names the
 * line and column (AppError `file_refused`).
 */
export function parseCardSettlements(bytes: Buffer): SettlementLine[] {
  const text = decoded(bytes);
  const records = csvRecords(text, cardSettlementLinesMax + 2);
  const [header, ...rows] = records;
  if (!header) refuse('line 1, column 1', 'the file is empty; it needs the header line');
  checkHeader(header.cells);
  const last = rows[cardSettlementLinesMax];
  if (last) {
    refuse(
      `line ${last.line}, column 1`,
      `a settlement file holds at most ${cardSettlementLinesMax} settlements`,
    );
  }
  const seen = new Map<string, number>();
  return rows.map(({ cells, line }) => {
    const settlement = settlementLine(cells, line);
    const earlier = seen.get(settlement.settlementId);
    if (earlier !== undefined) {
      refuse(
        placeOf(line, columnOf.settlement_id),
        `settlement ${settlement.settlementId} is already on line ${earlier}`,
      );
    }
    seen.set(settlement.settlementId, line);
    return settlement;
  });
}

/** Writes a settlement file: what the sandbox issuer hands staff for a day. */
export function cardSettlementCsv(settlements: Omit<SettlementLine, 'line'>[]): string {
  return (
    csvRow([...cardSettlementColumns]) +
    settlements
      .map((settlement) =>
        csvRow([
          settlement.settlementId,
          settlement.authorizationId,
          settlement.lastFour,
          toDecimalString(settlement.amountMinor, toCurrencyCode(settlement.currency)),
          settlement.currency,
          settlement.type,
          settlement.settledAt.toISOString(),
        ]),
      )
      .join('')
  );
}
