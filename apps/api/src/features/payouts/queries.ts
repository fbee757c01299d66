import { minorUnits } from '@coffer/contracts/money';
import {
  type Payout,
  type PayoutDestination,
  type PayoutStatus,
  payoutDestinationSchema,
  type StaffPayout,
} from '@coffer/contracts/payouts';
import type { Queryable } from '../../db/client.ts';
import type { RowOf } from '../../db/rows.ts';
import type { payouts } from '../../db/schema.ts';
import type { AccountId, EntryId, HoldId } from '../../ledger/ledger.ts';

/** A payout with its customer's and its decider's names. */
export type PayoutRow = Omit<RowOf<typeof payouts>, 'account_id' | 'hold_id'> & {
  account_id: AccountId;
  hold_id: HoldId;
  username: string;
  decided_by_username: string | null;
};

const selectPayouts = `
  SELECT p.*, u.username, decider.username AS decided_by_username
    FROM payouts p
    JOIN users u ON u.id = p.user_id
    LEFT JOIN users decider ON decider.id = p.decided_by_user_id`;

export function toPayout(row: PayoutRow): Payout {
  return {
    id: row.id,
    amountMinor: minorUnits(row.amount_minor),
    feeMinor: minorUnits(row.fee_minor),
    currency: row.currency,
    destination: payoutDestinationSchema.parse(row.destination),
    status: row.status,
    externalReference: row.external_reference,
    decisionReason: row.decision_reason,
    createdAt: row.created_at.toISOString(),
    decidedAt: row.decided_at?.toISOString() ?? null,
  };
}

export function toStaffPayout(row: PayoutRow): StaffPayout {
  return {
    ...toPayout(row),
    userId: row.user_id,
    username: row.username,
    decidedBy:
      row.decided_by_user_id && row.decided_by_username
        ? { id: row.decided_by_user_id, username: row.decided_by_username }
        : null,
  };
}

export async function findPayout(
  db: Queryable,
  payoutId: string,
  options: { isLocked?: boolean } = {},
): Promise<PayoutRow | null> {
  const found = await db.query<PayoutRow>(
    `${selectPayouts} WHERE p.id = $1${options.isLocked ? ' FOR UPDATE OF p' : ''}`,
    [payoutId],
  );
  return found.rows[0] ?? null;
}

export async function insertPayout(
  tx: Queryable,
  payout: {
    id: string;
    userId: string;
    accountId: AccountId;
    holdId: HoldId;
    amountMinor: bigint;
    feeMinor: bigint;
    currency: string;
    destination: PayoutDestination;
  },
): Promise<void> {
  await tx.query(
    `INSERT INTO payouts (id, user_id, account_id, hold_id, amount_minor, fee_minor, currency,
                          method, destination, status)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'pending')`,
    [
      payout.id,
      payout.userId,
      payout.accountId,
      payout.holdId,
      payout.amountMinor,
      payout.feeMinor,
      payout.currency,
      payout.destination.method,
      JSON.stringify(payout.destination),
    ],
  );
}

export async function recordDecision(
  tx: Queryable,
  decision: {
    payoutId: string;
    status: Exclude<PayoutStatus, 'pending'>;
    decidedByUserId: string;
    reason: string | null;
    externalReference: string | null;
    entryId: EntryId | null;
    batchId: string | null;
  },
): Promise<void> {
  await tx.query(
    `UPDATE payouts SET status = $2, decided_by_user_id = $3, decision_reason = $4,
            external_reference = $5, entry_id = $6, batch_id = $7, decided_at = now()
      WHERE id = $1`,
    [
      decision.payoutId,
      decision.status,
      decision.decidedByUserId,
      decision.reason,
      decision.externalReference,
      decision.entryId,
      decision.batchId,
    ],
  );
}

/** One customer's payouts, newest first (ids are time-ordered), after `cursor` if given. */
export async function payoutsOfUser(
  db: Queryable,
  userId: string,
  page: { cursor?: string | undefined; rowsMax: number },
): Promise<PayoutRow[]> {
  const found = await db.query<PayoutRow>(
    `${selectPayouts}
      WHERE p.user_id = $1 AND ($2::uuid IS NULL OR p.id < $2::uuid)
      ORDER BY p.id DESC LIMIT $3`,
    [userId, page.cursor ?? null, page.rowsMax],
  );
  return found.rows;
}

/** The work queue: payouts waiting for staff, oldest first. */
export async function pendingPayouts(db: Queryable, limit: number): Promise<PayoutRow[]> {
  const found = await db.query<PayoutRow>(
    `${selectPayouts} WHERE p.status = 'pending' ORDER BY p.created_at ASC, p.id ASC LIMIT $1`,
    [limit],
  );
  return found.rows;
}
