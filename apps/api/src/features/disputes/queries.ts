import type {
  Dispute,
  DisputeProblemType,
  DisputeStatus,
  StaffDispute,
} from '@coffer/contracts/disputes';
import { minorUnits } from '@coffer/contracts/money';
import type { Queryable } from '../../db/client.ts';
import type { RowOf } from '../../db/rows.ts';
import type {
  disputes,
  journalEntries,
  journalLines,
  moneyRequests,
  users,
} from '../../db/schema.ts';
import { assert } from '../../platform/assert.ts';

/** The dispute with its owner's username and its refund's money request, if any. */
export type DisputeRow = RowOf<typeof disputes> &
  Pick<RowOf<typeof users>, 'username'> & {
    refund_amount_minor: RowOf<typeof moneyRequests>['amount_minor'] | null;
    refund_currency: RowOf<typeof moneyRequests>['currency'] | null;
    refund_status: RowOf<typeof moneyRequests>['status'] | null;
  };

const selectDisputes = `
  SELECT d.*, u.username, r.amount_minor AS refund_amount_minor,
         r.currency AS refund_currency, r.status AS refund_status
    FROM disputes d
    JOIN users u ON u.id = d.user_id
    LEFT JOIN money_requests r ON r.id = d.refund_request_id`;

export function toDispute(row: DisputeRow): Dispute {
  return {
    id: row.id,
    reference: row.reference,
    amountMinor: minorUnits(row.amount_minor),
    currency: row.currency,
    recipientAccountNumber: row.recipient_account_number,
    problemType: row.problem_type,
    description: row.description,
    entryId: row.entry_id,
    status: row.status,
    resolutionNote: row.resolution_note,
    // A refund its maker cancelled before a second admin decided it is no refund at all.
    refund:
      row.refund_amount_minor !== null &&
      row.refund_currency &&
      row.refund_status &&
      row.refund_status !== 'cancelled'
        ? {
            amountMinor: minorUnits(row.refund_amount_minor),
            currency: row.refund_currency,
            status: row.refund_status,
          }
        : null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** A journal entry with its line on the customer's wallet, and the dispute about it if any. */
export type LinkedTransactionRow = Pick<
  RowOf<typeof journalEntries>,
  'id' | 'kind' | 'memo' | 'created_at'
> &
  Pick<RowOf<typeof journalLines>, 'amount_minor' | 'currency'> & {
    dispute_reference: RowOf<typeof disputes>['reference'] | null;
  };

/** The customer's line of an entry (`e`, `l`, `a`) and the dispute about it for them. */
const selectTransaction = `
  SELECT e.id, e.kind::text AS kind, e.memo, l.amount_minor, a.currency::text AS currency,
         e.created_at, dd.reference AS dispute_reference`;
const joinDispute = `
  LEFT JOIN disputed_transactions dt ON dt.user_id = a.owner_user_id AND dt.entry_id = e.id
  LEFT JOIN disputes dd ON dd.id = dt.dispute_id`;

export function toStaffDispute(row: DisputeRow, linked: LinkedTransactionRow | null): StaffDispute {
  return {
    ...toDispute(row),
    userId: row.user_id,
    username: row.username,
    linkedTransaction: linked
      ? {
          id: linked.id,
          kind: linked.kind,
          memo: linked.memo,
          amountMinor: minorUnits(linked.amount_minor),
          currency: linked.currency,
          createdAt: linked.created_at.toISOString(),
        }
      : null,
  };
}

export async function findDispute(
  db: Queryable,
  by: { id: string } | { reference: string } | { refundRequestId: string },
  options: { isLocked?: boolean } = {},
): Promise<DisputeRow | null> {
  const [column, value] =
    'id' in by
      ? ['d.id', by.id]
      : 'reference' in by
        ? ['d.reference', by.reference]
        : ['d.refund_request_id', by.refundRequestId];
  const found = await db.query<DisputeRow>(
    `${selectDisputes} WHERE ${column} = $1${options.isLocked ? ' FOR UPDATE OF d' : ''}`,
    [value],
  );
  return found.rows[0] ?? null;
}

/** The customer's own disputes, newest first. */
export async function disputesOfUser(
  db: Queryable,
  userId: string,
  rowsMax: number,
): Promise<DisputeRow[]> {
  const found = await db.query<DisputeRow>(
    `${selectDisputes} WHERE d.user_id = $1 ORDER BY d.created_at DESC LIMIT $2`,
    [userId, rowsMax],
  );
  return found.rows;
}

/** The staff queue: disputes not yet decided, oldest first. */
export async function openDisputes(db: Queryable, rowsMax: number): Promise<DisputeRow[]> {
  const found = await db.query<DisputeRow>(
    `${selectDisputes} WHERE d.status IN ('pending', 'investigating')
      ORDER BY d.created_at ASC, d.id ASC LIMIT $1`,
    [rowsMax],
  );
  return found.rows;
}

/**
 * The journal entry, as the owner's wallet saw it, when it touched that wallet: the only
 * transactions a customer may name in a dispute.
 */
export async function ownTransaction(
  db: Queryable,
  entryId: string,
  userId: string,
): Promise<LinkedTransactionRow | null> {
  const found = await db.query<LinkedTransactionRow>(
    `${selectTransaction}
       FROM journal_entries e
       JOIN journal_lines l ON l.entry_id = e.id
       JOIN accounts a ON a.id = l.account_id AND a.kind = 'customer' AND a.owner_user_id = $2
       ${joinDispute}
      WHERE e.id = $1
      LIMIT 1`,
    [entryId, userId],
  );
  return found.rows[0] ?? null;
}

/** The customer's latest entries, newest first, for the dispute form's picker. */
export async function recentTransactionsOf(
  db: Queryable,
  userId: string,
  rowsMax: number,
): Promise<LinkedTransactionRow[]> {
  const found = await db.query<LinkedTransactionRow>(
    `${selectTransaction}
       FROM accounts a
       JOIN journal_lines l ON l.account_id = a.id
       JOIN journal_entries e ON e.id = l.entry_id
       ${joinDispute}
      WHERE a.owner_user_id = $1 AND a.kind = 'customer'
      ORDER BY l.id DESC LIMIT $2`,
    [userId, rowsMax],
  );
  return found.rows;
}

/** Inserts with a fresh reference; false when the reference was taken (try another). */
export async function insertDispute(
  tx: Queryable,
  dispute: {
    id: string;
    reference: string;
    userId: string;
    amountMinor: bigint;
    currency: string;
    recipientAccountNumber: string | null;
    problemType: DisputeProblemType;
    description: string;
    entryId: string | null;
  },
): Promise<boolean> {
  const inserted = await tx.query(
    `INSERT INTO disputes (id, reference, user_id, amount_minor, currency,
                           recipient_account_number, problem_type, description, entry_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (reference) DO NOTHING RETURNING id`,
    [
      dispute.id,
      dispute.reference,
      dispute.userId,
      dispute.amountMinor,
      dispute.currency,
      dispute.recipientAccountNumber,
      dispute.problemType,
      dispute.description,
      dispute.entryId,
    ],
  );
  return inserted.rows.length > 0;
}

/**
 * Makes the dispute the one about the customer's transaction: null when it is, else the
 * reference of the dispute that already is (the caller rolls its own back).
 */
export async function claimDisputedTransaction(
  tx: Queryable,
  claim: { userId: string; entryId: string; disputeId: string },
): Promise<string | null> {
  const inserted = await tx.query(
    `INSERT INTO disputed_transactions (user_id, entry_id, dispute_id) VALUES ($1, $2, $3)
     ON CONFLICT (user_id, entry_id) DO NOTHING RETURNING dispute_id`,
    [claim.userId, claim.entryId, claim.disputeId],
  );
  if (inserted.rows.length > 0) return null;
  // A statement of its own: a claim committed while the insert waited for it is seen here.
  const found = await tx.query<{ reference: string }>(
    `SELECT d.reference FROM disputed_transactions dt JOIN disputes d ON d.id = dt.dispute_id
      WHERE dt.user_id = $1 AND dt.entry_id = $2`,
    [claim.userId, claim.entryId],
  );
  const reference = found.rows[0]?.reference;
  assert(reference, 'a refused claim has the dispute that holds it');
  return reference;
}

/**
 * The other customer's wallet number on a transfer the customer sent: whom the money went
 * to. Null when they received it (the sender's number is not theirs to see) or it is none.
 */
export async function transferRecipientNumber(
  db: Queryable,
  entryId: string,
  userId: string,
): Promise<string | null> {
  const found = await db.query<{ number: string }>(
    `SELECT theirs.number
       FROM journal_lines mine_line
       JOIN accounts mine ON mine.id = mine_line.account_id
        AND mine.kind = 'customer' AND mine.owner_user_id = $2
       JOIN journal_lines their_line ON their_line.entry_id = mine_line.entry_id
       JOIN accounts theirs ON theirs.id = their_line.account_id
        AND theirs.kind = 'customer' AND theirs.owner_user_id <> $2
      WHERE mine_line.entry_id = $1 AND mine_line.amount_minor < 0
      LIMIT 1`,
    [entryId, userId],
  );
  return found.rows[0]?.number ?? null;
}

export async function recordDisputeStep(
  tx: Queryable,
  step: {
    disputeId: string;
    status: DisputeStatus;
    note: string | null;
    decidedByUserId: string;
    refundRequestId: string | null;
  },
): Promise<void> {
  await tx.query(
    `UPDATE disputes SET status = $2, resolution_note = coalesce($3, resolution_note),
            decided_by_user_id = $4, refund_request_id = coalesce($5, refund_request_id),
            updated_at = now()
      WHERE id = $1`,
    [step.disputeId, step.status, step.note, step.decidedByUserId, step.refundRequestId],
  );
}
