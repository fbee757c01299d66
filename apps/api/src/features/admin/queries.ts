import type { Role } from '@coffer/contracts/auth';
import type { KycStatus } from '@coffer/contracts/kyc';
import type { Queryable } from '../../db/client.ts';
import type { RowOf } from '../../db/rows.ts';
import type { roleGrants } from '../../db/schema.ts';

export type CustomerListRow = {
  id: string;
  username: string;
  email: string;
  role: Role;
  level: number;
  is_frozen: boolean;
  currency: string | null;
  balance_minor: bigint | null;
  kyc_status: KycStatus | null;
};

function likePattern(search: string): string {
  return `%${search.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

const listColumns = `u.id, u.username, u.email, u.role, u.level, u.frozen_at IS NOT NULL AS is_frozen,
            a.currency, b.balance_minor,
            (SELECT k.status FROM kyc_submissions k WHERE k.user_id = u.id
              ORDER BY k.created_at DESC LIMIT 1) AS kyc_status`;
const withWallet = `LEFT JOIN accounts a ON a.owner_user_id = u.id AND a.kind = 'customer'
       LEFT JOIN account_balances b ON b.account_id = a.id AND b.bucket = 0`;
const matchesSearch = 'lower(u.username) LIKE $1 OR u.email LIKE $1';
/** How many of the newest users a search looks through before asking the indexes. */
const recentWindowSize = 5_000;

/**
 * Newest first, by id (UUIDv7 is time-ordered). The search matches a substring of the
 * name or address, case-insensitively, in two steps, because no single plan is fast for
 * every term: a common term ("@mail") finds a page among the newest few thousand users at
 * once, while a rare one ("516@mail") is found through the trigram indexes. Left to
 * itself the planner sometimes guessed wrong and walked the whole table in id order.
 */
export async function listCustomers(
  db: Queryable,
  query: { search?: string | undefined; cursor?: string | undefined; limit: number },
): Promise<CustomerListRow[]> {
  const cursor = query.cursor ?? null;
  if (!query.search) {
    const page = await db.query<CustomerListRow>(
      `SELECT ${listColumns} FROM users u ${withWallet}
        WHERE ($1::uuid IS NULL OR u.id < $1::uuid) ORDER BY u.id DESC LIMIT $2`,
      [cursor, query.limit],
    );
    return page.rows;
  }
  const pattern = likePattern(query.search);
  const recent = await db.query<CustomerListRow>(
    `SELECT ${listColumns}
       FROM (SELECT * FROM users WHERE ($2::uuid IS NULL OR id < $2::uuid)
              ORDER BY id DESC LIMIT $4) u ${withWallet}
      WHERE ${matchesSearch} ORDER BY u.id DESC LIMIT $3`,
    [pattern, cursor, query.limit, recentWindowSize],
  );
  if (recent.rows.length === query.limit) return recent.rows;
  const indexed = await db.query<CustomerListRow>(
    `WITH matches AS MATERIALIZED (
       SELECT id FROM users u WHERE (${matchesSearch}) AND ($2::uuid IS NULL OR u.id < $2::uuid))
     SELECT ${listColumns} FROM matches m JOIN users u ON u.id = m.id ${withWallet}
      ORDER BY u.id DESC LIMIT $3`,
    [pattern, cursor, query.limit],
  );
  return indexed.rows;
}

/** Exact, from the counter the triggers on users keep (migration 0020), not count(*). */
export async function countUsers(db: Queryable): Promise<number> {
  const counted = await db.query<{ count: bigint }>(
    'SELECT sum(user_count)::bigint AS count FROM user_count_stripes',
  );
  return Number(counted.rows[0]?.count ?? 0n);
}

/** Freezes the user unless they are frozen already (false then). */
export async function freezeUser(
  tx: Queryable,
  userId: string,
  freeze: { reason: string; byUserId: string },
): Promise<boolean> {
  const changed = await tx.query(
    `UPDATE users SET frozen_at = now(), frozen_reason = $2, frozen_by_user_id = $3
      WHERE id = $1 AND frozen_at IS NULL RETURNING id`,
    [userId, freeze.reason, freeze.byUserId],
  );
  return changed.rows.length > 0;
}

/**
 * Unfreezes the user if they are frozen (and, given `onlyReason`, frozen for that reason);
 * false otherwise.
 */
export async function unfreezeUser(
  tx: Queryable,
  userId: string,
  options: { onlyReason?: string } = {},
): Promise<boolean> {
  const changed = await tx.query(
    `UPDATE users SET frozen_at = NULL, frozen_reason = NULL, frozen_by_user_id = NULL
      WHERE id = $1 AND frozen_at IS NOT NULL AND ($2::text IS NULL OR frozen_reason = $2)
      RETURNING id`,
    [userId, options.onlyReason ?? null],
  );
  return changed.rows.length > 0;
}

export async function setUserLevel(tx: Queryable, userId: string, level: number): Promise<void> {
  await tx.query('UPDATE users SET level = $2 WHERE id = $1', [userId, level]);
}

export async function setUserRole(tx: Queryable, userId: string, role: Role): Promise<void> {
  await tx.query('UPDATE users SET role = $2 WHERE id = $1', [userId, role]);
}

/** A pending admin grant with its requester's name. */
export type PendingGrantRow = Pick<
  RowOf<typeof roleGrants>,
  'id' | 'user_id' | 'role' | 'reason' | 'requested_by_user_id' | 'created_at'
> & { requested_by_username: string };

export async function pendingRoleGrantOf(
  db: Queryable,
  userId: string,
  options: { isLocked?: boolean } = {},
): Promise<PendingGrantRow | null> {
  const found = await db.query<PendingGrantRow>(
    `SELECT g.id, g.user_id, g.role, g.reason, g.requested_by_user_id,
            requester.username AS requested_by_username, g.created_at
       FROM role_grants g JOIN users requester ON requester.id = g.requested_by_user_id
      WHERE g.user_id = $1 AND g.status = 'pending'${options.isLocked ? ' FOR UPDATE OF g' : ''}`,
    [userId],
  );
  return found.rows[0] ?? null;
}

/** Asks for a second admin's approval; false when the user has a pending grant already. */
export async function insertPendingAdminGrant(
  tx: Queryable,
  grant: { id: string; userId: string; reason: string; requestedByUserId: string },
): Promise<boolean> {
  const inserted = await tx.query(
    `INSERT INTO role_grants (id, user_id, role, status, reason, requested_by_user_id)
     VALUES ($1, $2, 'admin', 'pending', $3, $4) ON CONFLICT DO NOTHING RETURNING id`,
    [grant.id, grant.userId, grant.reason, grant.requestedByUserId],
  );
  return inserted.rows.length > 0;
}

/** A staff role given without a second admin (support), recorded as granted by its giver. */
export async function insertGrantedAtOnce(
  tx: Queryable,
  grant: { id: string; userId: string; role: Role; reason: string; requestedByUserId: string },
): Promise<void> {
  await tx.query(
    `INSERT INTO role_grants (id, user_id, role, status, reason, requested_by_user_id, decided_at)
     VALUES ($1, $2, $3, 'approved', $4, $5, now())`,
    [grant.id, grant.userId, grant.role, grant.reason, grant.requestedByUserId],
  );
}

export async function recordRoleGrantDecision(
  tx: Queryable,
  grantId: string,
  decision: { status: 'approved' | 'rejected'; decidedByUserId: string; reason: string | null },
): Promise<void> {
  await tx.query(
    `UPDATE role_grants SET status = $2, decided_by_user_id = $3, decision_reason = $4,
            decided_at = now() WHERE id = $1`,
    [grantId, decision.status, decision.decidedByUserId, decision.reason],
  );
}
