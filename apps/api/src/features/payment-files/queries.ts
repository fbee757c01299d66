import { minorUnits } from '@coffer/contracts/money';
import type {
  PayoutBatch,
  ReconciliationItem,
  ReconciliationKind,
} from '@coffer/contracts/payment-files';
import type { Queryable } from '../../db/client.ts';
import type { RowOf } from '../../db/rows.ts';
import type { payoutBatches, reconciliationItems } from '../../db/schema.ts';
import type { AccountId } from '../../ledger/ledger.ts';

export type PayoutBatchRow = RowOf<typeof payoutBatches> & {
  created_by_username: string;
  first_downloaded_by_username: string | null;
};

const selectBatches = `
  SELECT b.*, creator.username AS created_by_username,
         downloader.username AS first_downloaded_by_username
    FROM payout_batches b
    JOIN users creator ON creator.id = b.created_by_user_id
    LEFT JOIN users downloader ON downloader.id = b.first_downloaded_by_user_id`;

export function toPayoutBatch(row: PayoutBatchRow): PayoutBatch {
  return {
    id: row.id,
    reference: row.reference,
    currency: row.currency,
    format: row.format,
    payoutCount: row.payout_count,
    totalMinor: minorUnits(row.total_minor),
    createdBy: { id: row.created_by_user_id, username: row.created_by_username },
    createdAt: row.created_at.toISOString(),
    downloadCount: row.download_count,
    firstDownloadedAt: row.first_downloaded_at?.toISOString() ?? null,
    firstDownloadedBy:
      row.first_downloaded_by_user_id && row.first_downloaded_by_username
        ? { id: row.first_downloaded_by_user_id, username: row.first_downloaded_by_username }
        : null,
  };
}

export async function findBatch(db: Queryable, batchId: string): Promise<PayoutBatchRow | null> {
  const found = await db.query<PayoutBatchRow>(`${selectBatches} WHERE b.id = $1`, [batchId]);
  return found.rows[0] ?? null;
}

export async function recentBatches(db: Queryable, limit: number): Promise<PayoutBatchRow[]> {
  const found = await db.query<PayoutBatchRow>(
    `${selectBatches} ORDER BY b.created_at DESC, b.id DESC LIMIT $1`,
    [limit],
  );
  return found.rows;
}

export async function insertBatch(
  tx: Queryable,
  batch: {
    id: string;
    reference: string;
    currency: string;
    format: PayoutBatch['format'];
    fileText: string;
    payoutCount: number;
    totalMinor: bigint;
    createdByUserId: string;
  },
): Promise<void> {
  await tx.query(
    `INSERT INTO payout_batches (id, reference, currency, format, file_text, payout_count,
                                 total_minor, created_by_user_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      batch.id,
      batch.reference,
      batch.currency,
      batch.format,
      batch.fileText,
      batch.payoutCount,
      batch.totalMinor,
      batch.createdByUserId,
    ],
  );
}

/** Counts a download; the first one's time and person are kept. The row as it was before. */
export async function countDownload(
  tx: Queryable,
  batchId: string,
  userId: string,
): Promise<{ download_count: number; first_downloaded_at: Date | null } | null> {
  const before = await tx.query<{ download_count: number; first_downloaded_at: Date | null }>(
    'SELECT download_count, first_downloaded_at FROM payout_batches WHERE id = $1 FOR UPDATE',
    [batchId],
  );
  await tx.query(
    `UPDATE payout_batches SET download_count = download_count + 1,
            first_downloaded_at = coalesce(first_downloaded_at, now()),
            first_downloaded_by_user_id = coalesce(first_downloaded_by_user_id, $2)
      WHERE id = $1`,
    [batchId, userId],
  );
  return before.rows[0] ?? null;
}

/** The sent payouts the statements' debits may match, by end-to-end id and by batch. */
export type SentPayoutRow = {
  id: string;
  batch_id: string;
  batch_reference: string;
  amount_minor: bigint;
  currency: string;
  bank_statement_id: string | null;
};

export async function sentPayoutsOfBatches(
  db: Queryable,
  references: { payoutIds: string[]; batchReferences: string[] },
): Promise<SentPayoutRow[]> {
  const found = await db.query<SentPayoutRow>(
    `SELECT p.id, p.batch_id, b.reference AS batch_reference, p.amount_minor, p.currency,
            p.bank_statement_id
       FROM payouts p JOIN payout_batches b ON b.id = p.batch_id
      WHERE p.status = 'sent'
        AND (p.id = ANY($1::uuid[]) OR b.reference = ANY($2::text[]))`,
    [references.payoutIds, references.batchReferences],
  );
  return found.rows;
}

/** The customer wallets that these account numbers name, with the wallet's currency. */
export async function customerWalletsByNumber(
  db: Queryable,
  numbers: string[],
): Promise<{ number: string; user_id: string; id: AccountId; currency: string }[]> {
  const found = await db.query<{
    number: string;
    user_id: string;
    id: AccountId;
    currency: string;
  }>(
    `SELECT a.number, a.owner_user_id AS user_id, a.id, a.currency
       FROM accounts a JOIN users u ON u.id = a.owner_user_id
      WHERE a.kind = 'customer' AND u.role = 'customer' AND a.number = ANY($1::text[])`,
    [numbers],
  );
  return found.rows;
}

// Any constant works; it only has to be the same for every Coffer instance.
const paymentFileImportLockId = 7_261_030;

/**
 * One payment file imports at a time: two files naming the same payouts or card purchases
 * at once would both queue them as missing (the second then refused by the unique index, a
 * 500), and each must see what the other matched.
 */
export async function lockPaymentFileImports(tx: Queryable): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [paymentFileImportLockId]);
}

/** Inserts the statement unless a file of the same hash is in already; false then. */
export async function insertStatement(
  tx: Queryable,
  statement: {
    id: string;
    fileSha256: string;
    reference: string;
    iban: string;
    entryCount: number;
    uploadedByUserId: string;
  },
): Promise<boolean> {
  const inserted = await tx.query(
    `INSERT INTO bank_statements (id, file_sha256, statement_reference, account_iban,
                                  entry_count, deposit_request_count, matched_payout_count,
                                  queued_count, uploaded_by_user_id)
     VALUES ($1, $2, $3, $4, $5, 0, 0, 0, $6)
     ON CONFLICT (file_sha256) DO NOTHING RETURNING id`,
    [
      statement.id,
      statement.fileSha256,
      statement.reference,
      statement.iban,
      statement.entryCount,
      statement.uploadedByUserId,
    ],
  );
  return inserted.rows.length > 0;
}

/** Whether a file of this hash was imported before, as a statement or settlement file. */
export async function isFileImported(
  db: Queryable,
  table: 'bank_statements' | 'card_settlement_files',
  fileSha256: string,
): Promise<boolean> {
  const found = await db.query(`SELECT 1 FROM ${table} WHERE file_sha256 = $1`, [fileSha256]);
  return found.rows.length > 0;
}

/**
 * Whether a statement of `iban` under this message id is in already: the same statement
 * saved again (another hash) must not credit its customers twice.
 */
export async function isStatementReferenceImported(
  db: Queryable,
  iban: string,
  reference: string,
): Promise<boolean> {
  const found = await db.query(
    'SELECT 1 FROM bank_statements WHERE account_iban = $1 AND statement_reference = $2',
    [iban, reference],
  );
  return found.rows.length > 0;
}

export async function recordStatementCounts(
  tx: Queryable,
  statementId: string,
  counts: { depositRequests: number; matchedPayouts: number; queued: number },
): Promise<void> {
  await tx.query(
    `UPDATE bank_statements SET deposit_request_count = $2, matched_payout_count = $3,
            queued_count = $4 WHERE id = $1`,
    [statementId, counts.depositRequests, counts.matchedPayouts, counts.queued],
  );
}

/** Marks payouts found in a statement; an open "missing" item of theirs is resolved by it. */
export async function markPayoutsMatched(
  tx: Queryable,
  statementId: string,
  payoutIds: string[],
): Promise<void> {
  await tx.query(
    'UPDATE payouts SET bank_statement_id = $1 WHERE id = ANY($2::uuid[]) AND bank_statement_id IS NULL',
    [statementId, payoutIds],
  );
  await resolveMissingItems(tx, 'missing_payout', payoutIds);
}

/**
 * SQL: an item resolved by moving money that the second admin refused (or its maker
 * withdrew): nothing moved, so it is open again, to be resolved another way.
 */
const isReopened = `(r.status = 'resolved' AND EXISTS (
    SELECT 1 FROM money_requests m WHERE m.id = r.money_request_id AND m.status = 'rejected'))`;

/** SQL: an item staff still have to resolve: open, or reopened. */
const isStillOpen = `(r.status = 'open' OR ${isReopened})`;

const missingOf = {
  missing_payout: { column: 'payout_id', note: 'Found in a later statement' },
  missing_settlement: {
    column: 'card_authorization_id',
    note: 'Found in a later settlement file',
  },
} as const;

/**
 * Resolves the "missing" items still open (reopened ones too) of what a later file showed
 * after all. A reopened item's refused request is let go: the file settles it, and the
 * request keeps its own record.
 */
async function resolveMissingItems(
  tx: Queryable,
  kind: keyof typeof missingOf,
  ids: string[],
): Promise<void> {
  const { column, note } = missingOf[kind];
  await tx.query(
    `UPDATE reconciliation_items r SET status = 'resolved', resolution = 'matched',
            note = $3, resolved_at = now(), resolved_by_user_id = NULL, money_request_id = NULL
      WHERE r.kind = $1 AND ${isStillOpen} AND r.${column} = ANY($2::uuid[])`,
    [kind, ids, note],
  );
}

export type NewReconciliationItem = {
  id: string;
  kind: ReconciliationKind;
  bankStatementId: string | null;
  payoutId: string | null;
  cardSettlementFileId?: string;
  cardAuthorizationId?: string | null;
  refundableMinor?: bigint | null;
  amountMinor: bigint;
  expectedMinor: bigint | null;
  currency: string;
  bookingDate: string | null;
  counterparty: string | null;
  remittance: string | null;
  bankReference: string | null;
  reason: string;
};

export async function insertItem(tx: Queryable, item: NewReconciliationItem): Promise<void> {
  await tx.query(
    `INSERT INTO reconciliation_items (id, kind, bank_statement_id, payout_id, amount_minor,
                                       expected_minor, currency, booking_date, counterparty,
                                       remittance, bank_reference, reason,
                                       card_settlement_file_id, card_authorization_id,
                                       refundable_minor)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::date, $9, $10, $11, $12, $13, $14, $15)`,
    [
      item.id,
      item.kind,
      item.bankStatementId,
      item.payoutId,
      item.amountMinor,
      item.expectedMinor,
      item.currency,
      item.bookingDate,
      item.counterparty,
      item.remittance,
      item.bankReference,
      item.reason,
      item.cardSettlementFileId ?? null,
      item.cardAuthorizationId ?? null,
      item.refundableMinor ?? null,
    ],
  );
}

/**
 * The payouts of these batches that no statement has shown yet and that have no "missing"
 * item still open: the statements should have debited them.
 */
export async function unseenPayoutsOfBatches(
  tx: Queryable,
  batchIds: string[],
): Promise<{ id: string; amount_minor: bigint; currency: string; reference: string }[]> {
  const found = await tx.query<{
    id: string;
    amount_minor: bigint;
    currency: string;
    reference: string;
  }>(
    `SELECT p.id, p.amount_minor, p.currency, b.reference
       FROM payouts p JOIN payout_batches b ON b.id = p.batch_id
      WHERE p.batch_id = ANY($1::uuid[]) AND p.bank_statement_id IS NULL
        AND NOT EXISTS (SELECT 1 FROM reconciliation_items r
                         WHERE r.payout_id = p.id AND r.kind = 'missing_payout'
                           AND ${isStillOpen})
      ORDER BY p.id`,
    [batchIds],
  );
  return found.rows;
}

export type ReconciliationItemRow = Omit<RowOf<typeof reconciliationItems>, 'booking_date'> & {
  booking_day: string | null;
  resolved_by_username: string | null;
  /** The cardholder of a card settlement item's purchase. */
  card_user_id: string | null;
  is_reopened: boolean;
};

/** Open, or resolved by a move of money that was refused: staff resolve it (again). */
export function isItemOpen(row: ReconciliationItemRow): boolean {
  return row.status === 'open' || row.is_reopened;
}

const selectItems = `
  SELECT r.*, r.booking_date::text AS booking_day, resolver.username AS resolved_by_username,
         card.user_id AS card_user_id, ${isReopened} AS is_reopened
    FROM reconciliation_items r
    LEFT JOIN users resolver ON resolver.id = r.resolved_by_user_id
    LEFT JOIN card_authorizations card ON card.id = r.card_authorization_id`;

export function toReconciliationItem(row: ReconciliationItemRow): ReconciliationItem {
  return {
    id: row.id,
    kind: row.kind,
    amountMinor: minorUnits(row.amount_minor),
    expectedMinor: row.expected_minor === null ? null : minorUnits(row.expected_minor),
    currency: row.currency,
    bookingDate: row.booking_day,
    counterparty: row.counterparty,
    remittance: row.remittance,
    bankReference: row.bank_reference,
    payoutId: row.payout_id,
    cardAuthorizationId: row.card_authorization_id,
    refundableMinor: row.refundable_minor === null ? null : minorUnits(row.refundable_minor),
    reason: row.reason,
    status: isItemOpen(row) ? 'open' : 'resolved',
    resolution: row.resolution,
    note: row.note,
    moneyRequestId: row.money_request_id,
    resolvedBy:
      row.resolved_by_user_id && row.resolved_by_username
        ? { id: row.resolved_by_user_id, username: row.resolved_by_username }
        : null,
    resolvedAt: row.resolved_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
  };
}

export async function itemsWithStatus(
  db: Queryable,
  status: 'open' | 'resolved',
  limit: number,
): Promise<ReconciliationItemRow[]> {
  const found = await db.query<ReconciliationItemRow>(
    `${selectItems} WHERE ${status === 'open' ? `(r.status = 'open' OR ${isReopened})` : `r.status = 'resolved' AND NOT ${isReopened}`}
      ORDER BY ${status === 'open' ? 'r.created_at ASC, r.id ASC' : 'r.resolved_at DESC, r.id DESC'}
      LIMIT $1`,
    [limit],
  );
  return found.rows;
}

export async function findItem(
  db: Queryable,
  itemId: string,
  options: { isLocked?: boolean } = {},
): Promise<ReconciliationItemRow | null> {
  const found = await db.query<ReconciliationItemRow>(
    `${selectItems} WHERE r.id = $1${options.isLocked ? ' FOR UPDATE OF r' : ''}`,
    [itemId],
  );
  return found.rows[0] ?? null;
}

export async function recordResolution(
  tx: Queryable,
  itemId: string,
  resolution: {
    resolution: 'note' | 'deposit' | 'refund';
    note: string;
    moneyRequestId: string | null;
    resolvedByUserId: string;
  },
): Promise<void> {
  await tx.query(
    `UPDATE reconciliation_items SET status = 'resolved', resolution = $2, note = $3,
            money_request_id = $4, resolved_by_user_id = $5, resolved_at = now()
      WHERE id = $1`,
    [
      itemId,
      resolution.resolution,
      resolution.note,
      resolution.moneyRequestId,
      resolution.resolvedByUserId,
    ],
  );
}

/** A card purchase's settlement as we recorded it, with the card's last four. */
export type OurSettlementRow = {
  id: string;
  processor_id: string;
  settlement_id: string;
  last_four: string | null;
  amount_minor: bigint;
  currency: string;
  status: 'settled' | 'reversed';
  merchant: string;
  settled_at: Date;
  settlement_file_id: string | null;
};

const selectSettlements = `
  SELECT a.id, a.processor_id, a.settlement_id, c.last_four, a.amount_minor, a.currency,
         a.status, a.merchant, a.settled_at, a.settlement_file_id
    FROM card_authorizations a JOIN cards c ON c.id = a.card_id
   WHERE a.status IN ('settled', 'reversed') AND a.settlement_id IS NOT NULL`;

/** Our settlements that these settlement ids name. */
export async function settlementsByIds(
  db: Queryable,
  settlementIds: string[],
): Promise<OurSettlementRow[]> {
  const found = await db.query<OurSettlementRow>(
    `${selectSettlements} AND a.settlement_id = ANY($1::text[])`,
    [settlementIds],
  );
  return found.rows;
}

/**
 * SQL: the card purchase `authorizationId` was refunded from the queue, and the refund is
 * not refused: waiting for its second admin or posted. Such a purchase is queued for
 * nothing more, or a file of its day resent (another hash) would offer a second refund.
 */
function isRefunded(authorizationId: string): string {
  return `EXISTS (SELECT 1 FROM reconciliation_items refunded
                   JOIN money_requests m ON m.id = refunded.money_request_id
                  WHERE refunded.card_authorization_id = ${authorizationId}
                    AND refunded.resolution = 'refund'
                    AND m.status IN ('pending_approval', 'posted'))`;
}

/** Whether the card purchase was refunded from the queue already (a refund not refused). */
export async function isPurchaseRefunded(db: Queryable, authorizationId: string): Promise<boolean> {
  const found = await db.query(`SELECT ${isRefunded('$1')} AS refunded`, [authorizationId]);
  return (found.rows[0] as { refunded?: boolean } | undefined)?.refunded === true;
}

/**
 * Our settlements of a day (captures and reversals, by when they settled), oldest first;
 * `isUnseenOnly`: those no settlement file has shown and no "missing" item still open waits for.
 */
export async function settlementsOfDay(
  db: Queryable,
  bounds: { startsAt: Date; endsAt: Date },
  options: { isUnseenOnly: boolean },
): Promise<OurSettlementRow[]> {
  const unseen = `AND a.settlement_file_id IS NULL
     AND NOT EXISTS (SELECT 1 FROM reconciliation_items r
                      WHERE r.card_authorization_id = a.id AND r.kind = 'missing_settlement'
                        AND ${isStillOpen})
     AND NOT ${isRefunded('a.id')}`;
  const found = await db.query<OurSettlementRow>(
    `${selectSettlements} AND a.settled_at >= $1 AND a.settled_at < $2
     ${options.isUnseenOnly ? unseen : ''}
     ORDER BY a.settled_at, a.id`,
    [bounds.startsAt, bounds.endsAt],
  );
  return found.rows;
}

/** Inserts the settlement file unless a file of the same hash is in already; false then. */
export async function insertSettlementFile(
  tx: Queryable,
  file: {
    id: string;
    fileSha256: string;
    day: string;
    lineCount: number;
    uploadedByUserId: string;
  },
): Promise<boolean> {
  const inserted = await tx.query(
    `INSERT INTO card_settlement_files (id, file_sha256, settlement_day, line_count,
                                        matched_count, queued_count, uploaded_by_user_id)
     VALUES ($1, $2, $3::date, $4, 0, 0, $5)
     ON CONFLICT (file_sha256) DO NOTHING RETURNING id`,
    [file.id, file.fileSha256, file.day, file.lineCount, file.uploadedByUserId],
  );
  return inserted.rows.length > 0;
}

export async function recordSettlementFileCounts(
  tx: Queryable,
  fileId: string,
  counts: { matched: number; queued: number },
): Promise<void> {
  await tx.query(
    'UPDATE card_settlement_files SET matched_count = $2, queued_count = $3 WHERE id = $1',
    [fileId, counts.matched, counts.queued],
  );
}

/**
 * Marks card purchases shown by a settlement file (the first file that shows one keeps
 * it); an open "missing" item of theirs is resolved by it.
 */
export async function markSettlementsSeen(
  tx: Queryable,
  fileId: string,
  authorizationIds: string[],
): Promise<void> {
  await tx.query(
    `UPDATE card_authorizations SET settlement_file_id = $1
      WHERE id = ANY($2::uuid[]) AND settlement_file_id IS NULL`,
    [fileId, authorizationIds],
  );
  await resolveMissingItems(tx, 'missing_settlement', authorizationIds);
}
