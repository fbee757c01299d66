import { statementEntriesMax } from '@coffer/contracts/payment-files';
import { describe, expect, it } from 'vitest';
import { camt053, sandboxBankIban } from '../../../test/payment-files.ts';
import { AppError } from '../../platform/app-error.ts';
import { parseCamt053 } from './camt.ts';

/** A statement of `count` one-line entries: line 8 holds the account, entries follow. */
function statementOf(count: number): Buffer {
  const entry = '<Ntry><Amt Ccy="EUR">1.00</Amt><CdtDbtInd>CRDT</CdtDbtInd></Ntry>\n';
  return Buffer.from(camt053([]).replace('</Stmt>', `${entry.repeat(count)}</Stmt>`));
}

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error.message;
    throw error;
  }
  throw new Error('not refused');
}

describe('camt.053 statements', () => {
  it(`reads ${statementEntriesMax} entries and refuses one more, naming its line`, () => {
    expect(
      parseCamt053(statementOf(statementEntriesMax), sandboxBankIban).transactions,
    ).toHaveLength(statementEntriesMax);
    const firstEntryLine = 9;
    expect(refusal(() => parseCamt053(statementOf(statementEntriesMax + 1), sandboxBankIban))).toBe(
      `line ${firstEntryLine + statementEntriesMax}, column 1: a statement holds at most 100000 entries. Nothing was imported.`,
    );
    // Two files of 100,000 lines: seconds each on a loaded machine, which asserts nothing on time.
  }, 120_000);

  it('reads the parts of a transaction that matching needs', () => {
    const statement = parseCamt053(
      Buffer.from(
        camt053([
          {
            amount: '1250.5',
            isCredit: true,
            remittance: 'Account 1234567890 & more',
            counterparty: 'Grace Hopper',
            bankReference: 'REF-1',
          },
        ]),
      ),
      sandboxBankIban,
    );
    expect(statement.transactions).toEqual([
      {
        place: 'line 16, column 11',
        isCredit: true,
        amountMinor: 125_050n,
        currency: 'EUR',
        bookingDate: '2026-11-27',
        bankReference: 'REF-1',
        endToEndId: null,
        batchReference: null,
        remittance: 'Account 1234567890 & more',
        counterparty: 'Grace Hopper',
      },
    ]);
  });
});
