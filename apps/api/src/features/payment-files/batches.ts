import { type CurrencyCode, toCurrencyCode } from '@coffer/contracts/currencies';
import { toDecimalString } from '@coffer/contracts/money';
import type { PayoutBatch, PayoutBatchFormat } from '@coffer/contracts/payment-files';
import { payoutDestinationSchema } from '@coffer/contracts/payouts';
import { electronicFormatIBAN, isValidIBAN } from 'ibantools';
import SEPA from 'sepa';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { Ledger } from '../../ledger/ledger.ts';
import type { StaffAction } from '../../platform/access.ts';
import { AppError } from '../../platform/app-error.ts';
import { assert } from '../../platform/assert.ts';
import { recordAudit } from '../../platform/audit.ts';
import { csvRow } from '../../platform/csv.ts';
import { newId } from '../../platform/ids.ts';
import { findPayout, type PayoutRow } from '../payouts/queries.ts';
import { captureAccounts, markPayoutSent } from '../payouts/service.ts';
import {
  countDownload,
  findBatch,
  insertBatch,
  type PayoutBatchRow,
  recentBatches,
  toPayoutBatch,
} from './queries.ts';

export type PaymentFileDeps = { db: Database; ledger: Ledger; config: Config };

/** A payout's end-to-end id in the files: its id without dashes (ISO 20022 allows 35). */
export function endToEndIdOf(payoutId: string): string {
  return payoutId.replaceAll('-', '');
}

/** The payout id an end-to-end id of ours stands for, or null for someone else's. */
export function payoutIdOf(endToEndId: string): string | null {
  const match = /^([0-9a-f]{8})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{12})$/i.exec(
    endToEndId,
  );
  return match ? match.slice(1).join('-').toLowerCase() : null;
}

type BankPayout = PayoutRow & { holderName: string; accountNumber: string; bankName: string };

function bankPayout(row: PayoutRow): BankPayout | null {
  const destination = payoutDestinationSchema.parse(row.destination);
  return destination.method === 'bank' ? { ...row, ...destination } : null;
}

/** ISO 20022 names are at most 70 characters. */
const nameOf = (name: string) => name.slice(0, 70);

function pain001(
  config: Config,
  institutionName: string,
  reference: string,
  payouts: BankPayout[],
): string {
  const bank = config.bankAccount;
  if (!bank) throw new AppError('bank_account_not_set');
  const document = new SEPA.Document('pain.001.001.09');
  document.grpHdr.id = reference;
  document.grpHdr.created = new Date();
  document.grpHdr.initiatorName = nameOf(institutionName);
  const info = document.createPaymentInfo();
  info.requestedExecutionDate = new Date();
  info.debtorIBAN = bank.iban;
  if (bank.bic) info.debtorBIC = bank.bic;
  info.debtorName = nameOf(institutionName);
  document.addPaymentInfo(info);
  for (const payout of payouts) {
    const transaction = info.createTransaction();
    transaction.creditorName = nameOf(payout.holderName);
    transaction.creditorIBAN = electronicFormatIBAN(payout.accountNumber) ?? '';
    // sepa takes a number; toDecimalString keeps it exact to the cent for any real amount.
    transaction.amount = Number(toDecimalString(payout.amount_minor, toCurrencyCode('EUR')));
    transaction.end2endId = endToEndIdOf(payout.id);
    transaction.remittanceInfo = `Withdrawal ${reference}`;
    info.addTransaction(transaction);
  }
  return document.toString();
}

/** The CSV batch of other currencies (docs/OPERATIONS.md, "Payment files and reconciliation"). */
function csvBatch(reference: string, currency: CurrencyCode, payouts: BankPayout[]): string {
  let csv = csvRow([
    'Batch reference',
    'End-to-end id',
    'Amount',
    'Currency',
    'Account holder',
    'Bank',
    'Account number',
  ]);
  for (const payout of payouts) {
    csv += csvRow([
      reference,
      endToEndIdOf(payout.id),
      toDecimalString(payout.amount_minor, currency),
      currency,
      payout.holderName,
      payout.bankName,
      payout.accountNumber,
    ]);
  }
  return csv;
}

function refuseBatch(message: string): never {
  throw new AppError('validation_failed', { message, fields: { payoutIds: message } });
}

/** The chosen payouts, all pending bank payouts of one currency, each IBAN'd for pain.001. */
async function chosenPayouts(deps: PaymentFileDeps, payoutIds: string[]): Promise<BankPayout[]> {
  if (new Set(payoutIds).size !== payoutIds.length) refuseBatch('A payout is chosen twice');
  const chosen: BankPayout[] = [];
  for (const payoutId of payoutIds) {
    const row = await findPayout(deps.db, payoutId);
    if (!row) throw new AppError('not_found');
    if (row.status !== 'pending') throw new AppError('state_conflict');
    const payout = bankPayout(row);
    if (!payout) refuseBatch('Only bank payouts leave in a batch file');
    chosen.push(payout);
  }
  const currencies = new Set(chosen.map((payout) => payout.currency));
  if (currencies.size > 1) refuseBatch('One batch holds payouts of one currency');
  if (chosen[0]?.currency === 'EUR') {
    const notIban = chosen.find(
      (payout) => !isValidIBAN(electronicFormatIBAN(payout.accountNumber) ?? ''),
    );
    if (notIban) {
      refuseBatch(
        `The withdrawal of ${notIban.username} is to an account number, not an IBAN: SEPA needs an IBAN, send it by hand`,
      );
    }
  }
  return chosen;
}

const batchListLengthMax = 50;

export async function payoutBatches(deps: PaymentFileDeps): Promise<PayoutBatch[]> {
  return (await recentBatches(deps.db, batchListLengthMax)).map(toPayoutBatch);
}

/**
 * Staff send pending bank payouts together: one file (pain.001 for EUR, CSV otherwise) is
 * written and kept, and every payout is marked sent under the batch's reference in the
 * same transaction, so either all of them leave in the file or none does.
 */
export async function createPayoutBatch(
  deps: PaymentFileDeps,
  institutionName: string,
  payoutIds: string[],
  action: StaffAction,
): Promise<PayoutBatch> {
  if (!deps.config.bankAccount) throw new AppError('bank_account_not_set');
  const payouts = await chosenPayouts(deps, payoutIds);
  const currency = toCurrencyCode(payouts[0]?.currency ?? '');
  const accounts = await captureAccounts(
    deps,
    currency,
    payouts.some((payout) => payout.fee_minor > 0n),
  );
  const batchId = newId();
  // "B" and the id's 32 hex digits: unique, and within the standard's 35 characters.
  const reference = `B${endToEndIdOf(batchId)}`;
  const format: PayoutBatchFormat = currency === 'EUR' ? 'pain.001' : 'csv';
  const fileText =
    format === 'pain.001'
      ? pain001(deps.config, institutionName, reference, payouts)
      : csvBatch(reference, currency, payouts);
  const totalMinor = payouts.reduce((total, payout) => total + payout.amount_minor, 0n);
  await deps.db.transaction(async (tx) => {
    await insertBatch(tx, {
      id: batchId,
      reference,
      currency,
      format,
      fileText,
      payoutCount: payouts.length,
      totalMinor,
      createdByUserId: action.staff.userId,
    });
    // Locked in one order (by id), whatever order staff chose them in: two batches of the
    // same payouts at once then wait on each other instead of deadlocking (a 500 once).
    const lockOrder = [...payouts].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    for (const payout of lockOrder) {
      await markPayoutSent(deps, tx, {
        payoutId: payout.id,
        accounts,
        externalReference: reference,
        batchId,
        action,
      });
    }
    await recordAudit(tx, {
      action: 'payout_batch_created',
      actorUserId: action.staff.userId,
      subjectUserId: null,
      after: {
        reference,
        format,
        currency,
        payoutCount: payouts.length,
        totalMinor: totalMinor.toString(),
      },
      reason: action.reason || null,
      ipAddress: action.ipAddress,
    });
  });
  const saved = await findBatch(deps.db, batchId);
  assert(saved, 'a batch just made is found');
  return toPayoutBatch(saved);
}

/**
 * The batch's file, as written when its payouts were sent. Every download is audited;
 * from the second on, the answer also says when and by whom it was first downloaded
 * (the payouts were sent then: a bank given the file twice would pay twice).
 */
export async function downloadPayoutBatch(
  deps: PaymentFileDeps,
  batchId: string,
  action: StaffAction,
): Promise<{ batch: PayoutBatchRow; previousDownloads: number }> {
  const batch = await findBatch(deps.db, batchId);
  if (!batch) throw new AppError('not_found');
  const previousDownloads = await deps.db.transaction(async (tx) => {
    const before = await countDownload(tx, batchId, action.staff.userId);
    assert(before, 'a batch found is there to count');
    await recordAudit(tx, {
      action: 'payout_batch_downloaded',
      actorUserId: action.staff.userId,
      subjectUserId: null,
      before: {
        downloadCount: before.download_count,
        firstDownloadedAt: before.first_downloaded_at?.toISOString() ?? null,
      },
      after: { reference: batch.reference, downloadCount: before.download_count + 1 },
      ipAddress: action.ipAddress,
    });
    return before.download_count;
  });
  const counted = await findBatch(deps.db, batchId);
  assert(counted, 'a batch found is still there');
  return { batch: counted, previousDownloads };
}
