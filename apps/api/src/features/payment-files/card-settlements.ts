import { createHash } from 'node:crypto';
import { toCurrencyCode } from '@coffer/contracts/currencies';
import { toDecimalString } from '@coffer/contracts/money';
import type { CardSettlementImport } from '@coffer/contracts/payment-files';
import type { Queryable } from '../../db/client.ts';
import type { StaffAction } from '../../platform/access.ts';
import { AppError } from '../../platform/app-error.ts';
import { recordAudit } from '../../platform/audit.ts';
import { refuse } from '../../platform/file-checks.ts';
import { newId } from '../../platform/ids.ts';
import { dayBounds } from '../books/queries.ts';
import type { PaymentFileDeps } from './batches.ts';
import {
  cardSettlementCsv,
  parseCardSettlements,
  type SettlementLine,
} from './card-settlement-file.ts';
import {
  insertItem,
  insertSettlementFile,
  isFileImported,
  lockPaymentFileImports,
  markSettlementsSeen,
  type NewReconciliationItem,
  type OurSettlementRow,
  recordSettlementFileCounts,
  settlementsByIds,
  settlementsOfDay,
} from './queries.ts';

const typeOfStatus = { settled: 'capture', reversed: 'reversal' } as const;

/** The sandbox issuer's settlement file of a day: our own settlements, as a processor sends them. */
export async function sandboxSettlementFile(deps: PaymentFileDeps, day: string): Promise<string> {
  const bounds = await dayBounds(deps.db, day, deps.config.timeZone);
  const settlements = await settlementsOfDay(deps.db, bounds, { isUnseenOnly: false });
  return cardSettlementCsv(
    settlements.map((row) => ({
      settlementId: row.settlement_id,
      authorizationId: row.processor_id,
      lastFour: row.last_four ?? '0000',
      amountMinor: row.amount_minor,
      currency: toCurrencyCode(row.currency),
      type: typeOfStatus[row.status],
      settledAt: row.settled_at,
    })),
  );
}

const money = (amountMinor: bigint, currency: string) =>
  `${toDecimalString(amountMinor, toCurrencyCode(currency))} ${currency}`;

/** How a line differs from our settlement, in words; none when it matches. */
function differencesOf(line: SettlementLine, ours: OurSettlementRow): string[] {
  const differences: string[] = [];
  if (line.authorizationId !== ours.processor_id) {
    differences.push(
      `it names authorization ${line.authorizationId}; ours is ${ours.processor_id}`,
    );
  }
  if (line.lastFour !== ours.last_four) {
    differences.push(`card ending ${line.lastFour}; ours ends ${ours.last_four ?? '(none)'}`);
  }
  if (line.type !== typeOfStatus[ours.status]) {
    differences.push(`a ${line.type}; ours was a ${typeOfStatus[ours.status]}`);
  }
  if (line.amountMinor !== ours.amount_minor || line.currency !== ours.currency) {
    differences.push(
      `${money(line.amountMinor, line.currency)}; ours was ${money(ours.amount_minor, ours.currency)}`,
    );
  }
  return differences;
}

/**
 * What we took from the cardholder beyond what the processor settled (a capture of ours
 * in the same currency for more): the refund that would make them whole; else null.
 */
function refundableOf(line: SettlementLine | null, ours: OurSettlementRow): bigint | null {
  if (ours.status !== 'settled') return null;
  if (!line || line.type === 'reversal') return ours.amount_minor;
  if (line.currency !== ours.currency || line.amountMinor >= ours.amount_minor) return null;
  return ours.amount_minor - line.amountMinor;
}

type Outcome = { seenIds: string[]; items: NewReconciliationItem[] };

/** Matches each line to our settlement of the same id; what differs becomes an item. */
function matchLines(
  fileId: string,
  day: string,
  lines: SettlementLine[],
  ours: OurSettlementRow[],
): Outcome {
  const byId = new Map(ours.map((row) => [row.settlement_id, row]));
  const outcome: Outcome = { seenIds: [], items: [] };
  for (const line of lines) {
    const row = byId.get(line.settlementId);
    const common = {
      id: newId(),
      bankStatementId: null,
      payoutId: null,
      cardSettlementFileId: fileId,
      amountMinor: line.amountMinor,
      currency: line.currency,
      bookingDate: day,
      remittance: null,
      bankReference: line.settlementId,
    };
    if (!row || row.settlement_file_id !== null) {
      outcome.items.push({
        ...common,
        kind: 'unknown_settlement',
        expectedMinor: null,
        counterparty: null,
        cardAuthorizationId: row?.id ?? null,
        reason: row
          ? `Line ${line.line}: settlement ${line.settlementId} was already in an earlier file`
          : `Line ${line.line}: settlement ${line.settlementId} names no card purchase of ours`,
      });
      continue;
    }
    outcome.seenIds.push(row.id);
    const differences = differencesOf(line, row);
    if (differences.length > 0) {
      outcome.items.push({
        ...common,
        kind: 'settlement_difference',
        expectedMinor: row.amount_minor,
        counterparty: row.merchant,
        cardAuthorizationId: row.id,
        refundableMinor: refundableOf(line, row),
        reason: `Line ${line.line}: the processor settled ${differences.join('; ')}`,
      });
    }
  }
  return outcome;
}

/** Queues our settlements of the day that no file has shown: the processor left them out. */
async function queueMissingSettlements(
  tx: Queryable,
  fileId: string,
  day: string,
  bounds: { startsAt: Date; endsAt: Date },
): Promise<number> {
  const missing = await settlementsOfDay(tx, bounds, { isUnseenOnly: true });
  for (const row of missing) {
    await insertItem(tx, {
      id: newId(),
      kind: 'missing_settlement',
      bankStatementId: null,
      payoutId: null,
      cardSettlementFileId: fileId,
      cardAuthorizationId: row.id,
      refundableMinor: refundableOf(null, row),
      amountMinor: row.amount_minor,
      expectedMinor: row.amount_minor,
      currency: row.currency,
      bookingDate: day,
      counterparty: row.merchant,
      remittance: null,
      bankReference: row.settlement_id,
      reason: `Our ${typeOfStatus[row.status]} ${row.settlement_id} of ${day} is not in the processor's file`,
    });
  }
  return missing.length;
}

/**
 * Imports the card processor's settlement file of `day` (institution's time zone): each
 * line is matched to the settlement of ours it names; a line for none, one that differs
 * (amount, currency, type, card or authorization), and our settlements of that day the
 * file leaves out go to the reconciliation queue. Every line must have settled on `day`.
 * All in one transaction; the same file twice is refused by its hash.
 */
export async function importCardSettlements(
  deps: PaymentFileDeps,
  day: string,
  bytes: Buffer,
  action: StaffAction,
): Promise<CardSettlementImport> {
  const fileSha256 = createHash('sha256').update(bytes).digest('hex');
  if (await isFileImported(deps.db, 'card_settlement_files', fileSha256)) {
    throw new AppError('file_already_imported');
  }
  const lines = parseCardSettlements(bytes);
  const bounds = await dayBounds(deps.db, day, deps.config.timeZone);
  const outside = lines.find(
    (line) => line.settledAt < bounds.startsAt || line.settledAt >= bounds.endsAt,
  );
  if (outside) {
    refuse(
      `line ${outside.line}, column 7 (settled_at)`,
      `it settled outside ${day} (${deps.config.timeZone}), the day this file is for`,
    );
  }
  const fileId = newId();
  const counts = await deps.db.transaction(async (tx) => {
    await lockPaymentFileImports(tx);
    // Read under the lock: read before it, two files at once would both match a line
    // (both offering a refund of one difference).
    const ours = await settlementsByIds(
      tx,
      lines.map((line) => line.settlementId),
    );
    const outcome = matchLines(fileId, day, lines, ours);
    const isNew = await insertSettlementFile(tx, {
      id: fileId,
      fileSha256,
      day,
      lineCount: lines.length,
      uploadedByUserId: action.staff.userId,
    });
    if (!isNew) throw new AppError('file_already_imported');
    for (const item of outcome.items) await insertItem(tx, item);
    await markSettlementsSeen(tx, fileId, outcome.seenIds);
    const missing = await queueMissingSettlements(tx, fileId, day, bounds);
    const differing = outcome.items.filter((item) => item.kind === 'settlement_difference');
    const result = {
      matched: outcome.seenIds.length - differing.length,
      queued: outcome.items.length + missing,
    };
    await recordSettlementFileCounts(tx, fileId, result);
    await recordAudit(tx, {
      action: 'card_settlements_imported',
      actorUserId: action.staff.userId,
      subjectUserId: null,
      after: { day, fileSha256, lineCount: lines.length, ...result },
      ipAddress: action.ipAddress,
    });
    return result;
  });
  return {
    id: fileId,
    day,
    lineCount: lines.length,
    matchedCount: counts.matched,
    queuedCount: counts.queued,
  };
}
