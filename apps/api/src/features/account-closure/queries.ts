import type { Queryable } from '../../db/client.ts';
import type { RowOf } from '../../db/rows.ts';
import type { accountReopenings } from '../../db/schema.ts';

/** What is still open on a customer's account: each count keeps the account open. */
export type OpenItemsRow = {
  loans_pending: number;
  loans_outstanding: number;
  cards_open: number;
  payouts_pending: number;
  disputes_open: number;
  money_requests_pending: number;
  bulk_payments_paying: number;
  schedules_live: number;
};

/** The schedules a closure cancels, locked: active and paused ones. */
export async function lockLiveSchedules(tx: Queryable, userId: string): Promise<string[]> {
  const found = await tx.query<{ id: string }>(
    `SELECT id FROM scheduled_payments WHERE user_id = $1 AND status <> 'cancelled'
      ORDER BY id FOR UPDATE`,
    [userId],
  );
  return found.rows.map((row) => row.id);
}

/** Everything a closure waits for, in one statement (ADR 050). */
export async function openItemsOf(db: Queryable, userId: string): Promise<OpenItemsRow> {
  const found = await db.query<OpenItemsRow>(
    `SELECT
       (SELECT count(*)::int FROM loans WHERE user_id = $1 AND status IN ('pending', 'approved'))
         AS loans_pending,
       (SELECT count(*)::int FROM loans WHERE user_id = $1 AND status = 'disbursed')
         AS loans_outstanding,
       (SELECT count(*)::int FROM cards WHERE user_id = $1 AND status IN ('requested', 'issued', 'frozen'))
         AS cards_open,
       (SELECT count(*)::int FROM payouts WHERE user_id = $1 AND status = 'pending')
         AS payouts_pending,
       (SELECT count(*)::int FROM disputes WHERE user_id = $1 AND status IN ('pending', 'investigating'))
         AS disputes_open,
       (SELECT count(*)::int FROM money_requests WHERE user_id = $1 AND status = 'pending_approval')
         AS money_requests_pending,
       (SELECT count(*)::int FROM bulk_payments WHERE user_id = $1 AND status = 'paying')
         AS bulk_payments_paying,
       (SELECT count(*)::int FROM scheduled_payments WHERE user_id = $1 AND status <> 'cancelled')
         AS schedules_live`,
    [userId],
  );
  const row = found.rows[0];
  if (!row) throw new Error('a count query answers one row');
  return row;
}

export type WalletStateRow = {
  wallet_id: string;
  currency: string;
  is_main: boolean;
  balance_minor: bigint;
  held_minor: bigint;
  is_closed: boolean;
};

/**
 * The customer's wallets (one per currency, the main one first: ADR 052) with their
 * balances; with `isLocked`, their rows are locked until the transaction ends, in id order
 * as the ledger locks them: every posting to a wallet takes the same lock, so nothing lands
 * between this read and the closure.
 */
export async function walletStatesOf(
  db: Queryable,
  userId: string,
  options: { isLocked: boolean },
): Promise<WalletStateRow[]> {
  const found = await db.query<WalletStateRow>(
    `SELECT a.id AS wallet_id, a.currency::text AS currency, a.is_main,
            b.balance_minor, b.held_minor, b.is_closed
       FROM accounts a JOIN account_balances b ON b.account_id = a.id AND b.bucket = 0
      WHERE a.owner_user_id = $1 AND a.kind = 'customer'
      ORDER BY a.id
      ${options.isLocked ? 'FOR UPDATE OF b' : ''}`,
    [userId],
  );
  return [...found.rows].sort((a, b) => Number(b.is_main) - Number(a.is_main));
}

/** The customer's saved withdrawal destinations, for the rest of a balance. */
export async function withdrawalPayeesOf(
  db: Queryable,
  userId: string,
): Promise<{ id: string; nickname: string }[]> {
  const found = await db.query<{ id: string; nickname: string }>(
    `SELECT id, nickname FROM payees WHERE user_id = $1 AND kind = 'payout'
      ORDER BY nickname LIMIT 20`,
    [userId],
  );
  return found.rows;
}

/**
 * Locks the user's row: a closure and a reopening of the same account wait for each other.
 * NO KEY UPDATE, not UPDATE: a payment's transfers row key-share locks its recipient's user
 * row after locking the wallet, and FOR UPDATE here (before the wallet) would deadlock with it.
 */
export async function lockUser(
  tx: Queryable,
  userId: string,
): Promise<{
  closed_at: Date | null;
  personal_data_removed_at: Date | null;
  email: string;
} | null> {
  const found = await tx.query<{
    closed_at: Date | null;
    personal_data_removed_at: Date | null;
    email: string;
  }>(
    'SELECT closed_at, personal_data_removed_at, email FROM users WHERE id = $1 FOR NO KEY UPDATE',
    [userId],
  );
  return found.rows[0] ?? null;
}

/** Marks the wallets closed (the ledger refuses their lines) and drops unsent emails. */
export async function markWalletsClosed(
  tx: Queryable,
  wallets: { walletIds: string[]; email: string },
): Promise<void> {
  await tx.query(
    'UPDATE account_balances SET is_closed = true WHERE account_id = ANY($1::uuid[]) AND bucket = 0',
    [wallets.walletIds],
  );
  // Mail queued before the closure (a statement, a notice) is not sent after it.
  await tx.query('DELETE FROM outbox_emails WHERE to_address = $1 AND sent_at IS NULL', [
    wallets.email,
  ]);
}

/** Marks the person closed: no sign-in, no session, no email from now on; answers when. */
export async function closeUser(tx: Queryable, userId: string): Promise<Date> {
  const closed = await tx.query<{ closed_at: Date }>(
    'UPDATE users SET closed_at = now() WHERE id = $1 RETURNING closed_at',
    [userId],
  );
  const closedAt = closed.rows[0]?.closed_at;
  if (!closedAt) throw new Error('the locked user is there');
  return closedAt;
}

/** Opens a closed account again: its user and its wallet. */
export async function markReopened(tx: Queryable, userId: string): Promise<void> {
  await tx.query('UPDATE users SET closed_at = NULL WHERE id = $1', [userId]);
  await tx.query(
    `UPDATE account_balances SET is_closed = false
      WHERE bucket = 0
        AND account_id IN (SELECT id FROM accounts WHERE owner_user_id = $1 AND kind = 'customer')`,
    [userId],
  );
}

export type ReopeningRow = RowOf<typeof accountReopenings>;
export type PendingReopeningRow = ReopeningRow & { requested_by_username: string };

export async function insertReopening(
  tx: Queryable,
  reopening: { id: string; userId: string; reason: string; requestedByUserId: string },
): Promise<boolean> {
  // The partial unique index allows one pending request a customer.
  const inserted = await tx.query(
    `INSERT INTO account_reopenings (id, user_id, reason, requested_by_user_id)
     VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING id`,
    [reopening.id, reopening.userId, reopening.reason, reopening.requestedByUserId],
  );
  return inserted.rows.length > 0;
}

export async function pendingReopeningOf(
  db: Queryable,
  userId: string,
): Promise<PendingReopeningRow | null> {
  const found = await db.query<PendingReopeningRow>(
    `SELECT r.*, u.username AS requested_by_username
       FROM account_reopenings r JOIN users u ON u.id = r.requested_by_user_id
      WHERE r.user_id = $1 AND r.status = 'pending'`,
    [userId],
  );
  return found.rows[0] ?? null;
}

export async function lockReopening(tx: Queryable, id: string): Promise<ReopeningRow | null> {
  const found = await tx.query<ReopeningRow>(
    'SELECT * FROM account_reopenings WHERE id = $1 FOR UPDATE',
    [id],
  );
  return found.rows[0] ?? null;
}

export async function recordReopeningDecision(
  tx: Queryable,
  decision: {
    id: string;
    status: 'approved' | 'rejected' | 'cancelled';
    decidedByUserId: string;
    reason: string;
  },
): Promise<void> {
  await tx.query(
    `UPDATE account_reopenings
        SET status = $2, decided_by_user_id = $3, decision_reason = $4, decided_at = now()
      WHERE id = $1`,
    [decision.id, decision.status, decision.decidedByUserId, decision.reason],
  );
}
