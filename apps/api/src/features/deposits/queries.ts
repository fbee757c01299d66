import type { Queryable } from '../../db/client.ts';
import type { RowOf } from '../../db/rows.ts';
import type { moneyRequests } from '../../db/schema.ts';
import type { AccountId } from '../../ledger/ledger.ts';

/** A staff posting request with the names of its customer, maker and checker. */
export type MoneyRequestRow = Omit<RowOf<typeof moneyRequests>, 'account_id'> & {
  account_id: AccountId;
  username: string;
  maker_username: string;
  checker_username: string | null;
};

export type MoneyRequestDirection = MoneyRequestRow['direction'];
export type MoneyRequestStatus = MoneyRequestRow['status'];

const selectRequests = `
  SELECT r.*, u.username, maker.username AS maker_username, checker.username AS checker_username
    FROM money_requests r
    JOIN users u ON u.id = r.user_id
    JOIN users maker ON maker.id = r.maker_user_id
    LEFT JOIN users checker ON checker.id = r.checker_user_id`;

export async function findRequest(
  db: Queryable,
  requestId: string,
  options: { isLocked?: boolean } = {},
): Promise<MoneyRequestRow | null> {
  const found = await db.query<MoneyRequestRow>(
    `${selectRequests} WHERE r.id = $1${options.isLocked ? ' FOR UPDATE OF r' : ''}`,
    [requestId],
  );
  return found.rows[0] ?? null;
}

/** Oldest first, at most `limit`: the queue of requests waiting for a second admin. */
export async function pendingRequests(db: Queryable, limit: number): Promise<MoneyRequestRow[]> {
  const found = await db.query<MoneyRequestRow>(
    `${selectRequests} WHERE r.status = 'pending_approval' ORDER BY r.created_at ASC LIMIT $1`,
    [limit],
  );
  return found.rows;
}

/** A customer's requests, newest first, at most `limit`. */
export async function requestsOfUser(
  db: Queryable,
  userId: string,
  limit: number,
): Promise<MoneyRequestRow[]> {
  const found = await db.query<MoneyRequestRow>(
    `${selectRequests} WHERE r.user_id = $1 ORDER BY r.created_at DESC LIMIT $2`,
    [userId, limit],
  );
  return found.rows;
}

export async function insertPendingRequest(
  tx: Queryable,
  request: {
    id: string;
    userId: string;
    accountId: AccountId;
    direction: MoneyRequestDirection;
    amountMinor: bigint;
    currency: string;
    externalReference: string | null;
    reason: string;
    makerUserId: string;
  },
): Promise<void> {
  await tx.query(
    `INSERT INTO money_requests (id, user_id, account_id, direction, amount_minor, currency,
                                 external_reference, reason, status, maker_user_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending_approval', $9)`,
    [
      request.id,
      request.userId,
      request.accountId,
      request.direction,
      request.amountMinor,
      request.currency,
      request.externalReference,
      request.reason,
      request.makerUserId,
    ],
  );
}

/** Records how a request ended: who checked it, why, and the entry it posted, if any. */
export async function recordRequestOutcome(
  tx: Queryable,
  requestId: string,
  outcome: {
    status: Exclude<MoneyRequestStatus, 'pending_approval'>;
    checkerUserId: string | null;
    decisionReason: string | null;
    entryId: string | null;
  },
): Promise<void> {
  await tx.query(
    `UPDATE money_requests SET status = $2, checker_user_id = $3, decision_reason = $4,
            decided_at = now(), entry_id = $5 WHERE id = $1`,
    [requestId, outcome.status, outcome.checkerUserId, outcome.decisionReason, outcome.entryId],
  );
}
