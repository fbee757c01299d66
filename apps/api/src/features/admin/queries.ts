import { customerSearchIdentifiers } from '@coffer/contracts/admin';
import type { Role } from '@coffer/contracts/auth';
import type { KycStatus } from '@coffer/contracts/kyc';
import type { Queryable } from '../../db/client.ts';
import type { RowOf } from '../../db/rows.ts';
import type { roleGrants } from '../../db/schema.ts';

export type CustomerListRow = {
  id: string;
  username: string;
  legal_name: string | null;
  email: string;
  role: Role;
  level: number;
  is_frozen: boolean;
  closed_at: Date | null;
  currency: string | null;
  balance_minor: bigint | null;
  kyc_status: KycStatus | null;
};

function likePattern(search: string): string {
  return `%${search.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

const listColumns = `u.id, u.username, u.legal_name, u.email, u.role, u.level, u.frozen_at IS NOT NULL AS is_frozen, u.closed_at,
            a.currency, b.balance_minor,
            (SELECT k.status FROM kyc_submissions k WHERE k.user_id = u.id
              ORDER BY k.created_at DESC LIMIT 1) AS kyc_status`;
const withWallet = `LEFT JOIN accounts a ON a.owner_user_id = u.id AND a.kind = 'customer' AND a.is_main
       LEFT JOIN account_balances b ON b.account_id = a.id AND b.bucket = 0`;
/** Part of the username, verified legal name or address; each has a trigram index. */
export const matchesSearch =
  'lower(u.username) LIKE $1 OR lower(u.legal_name) LIKE $1 OR u.email LIKE $1';
/** How far the search's steps reach (ADR 022); tests make them small. */
export type SearchDepths = {
  /** How many of the newest users a search reads row by row before asking the indexes. */
  readRowByRow: number;
  /** How many of the newest users the indexes are asked about before all the others. */
  indexedFirst: number;
};
const searchDepths: SearchDepths = { readRowByRow: 5_000, indexedFirst: 50_000 };

type SearchPage = { pattern: string; cursor: string | null; limit: number };

/**
 * Newest first, by id (UUIDv7 is time-ordered). A search finds users by part of their
 * username, verified legal name or address, and by an account number, phone, card's last four digits or dispute
 * reference quoted exactly (issue #31).
 */
export async function listCustomers(
  db: Queryable,
  query: { search?: string | undefined; cursor?: string | undefined; limit: number },
  depths: SearchDepths = searchDepths,
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
  const search = { pattern: likePattern(query.search), cursor, limit: query.limit };
  const byName = await nameOrEmailMatches(db, search, depths);
  const byIdentifier = await identifierMatches(db, query.search, search);
  if (byIdentifier.length === 0) return byName;
  // Both are the newest matches before the cursor, so the page is the newest of both.
  const byId = new Map([...byName, ...byIdentifier].map((row) => [row.id, row]));
  return [...byId.values()].sort((a, b) => (a.id < b.id ? 1 : -1)).slice(0, query.limit);
}

/**
 * The newest users before the cursor whose name or address holds the search,
 * case-insensitively, in up to three steps, because no single plan is
 * fast for every term (ADR 022): a common term ("@mail") fills a page among the newest
 * few thousand users at once; a rare one ("olivia tanaka"), found there not at all, has
 * few matches in the whole table and the trigram indexes find them all; one in between
 * ("tanaka", 1 in 300) is looked up in the indexes among the newest 50,000 users first,
 * so that a few hundred rows are read rather than every match in the table, and only
 * then among the others.
 */
async function nameOrEmailMatches(
  db: Queryable,
  search: SearchPage,
  depths: SearchDepths,
): Promise<CustomerListRow[]> {
  const { cursor } = search;
  const recent = await recentMatches(db, search, depths.readRowByRow);
  if (recent.length === search.limit) return recent;
  // None among the newest few thousand: a rare term, whose every match the indexes find fast.
  if (recent.length === 0) return indexedMatches(db, search, null);
  const boundary = await idAtDepth(db, cursor, depths.indexedFirst);
  const newer = await indexedMatches(db, search, boundary);
  if (newer.length === search.limit || boundary === null) return newer;
  const older = await indexedMatches(
    db,
    { ...search, cursor: boundary, limit: search.limit - newer.length },
    null,
  );
  return [...newer, ...older];
}

/** Matches among the newest `depth` users before the cursor, read row by row. */
async function recentMatches(
  db: Queryable,
  search: SearchPage,
  depth: number,
): Promise<CustomerListRow[]> {
  const found = await db.query<CustomerListRow>(
    `SELECT ${listColumns}
       FROM (SELECT * FROM users WHERE ($2::uuid IS NULL OR id < $2::uuid)
              ORDER BY id DESC LIMIT $4) u ${withWallet}
      WHERE ${matchesSearch} ORDER BY u.id DESC LIMIT $3`,
    [search.pattern, search.cursor, search.limit, depth],
  );
  return found.rows;
}

const identifierMatchesSql = `WITH matches AS MATERIALIZED (
       SELECT owner_user_id AS id FROM accounts WHERE number = $3 AND kind = 'customer'
       UNION SELECT id FROM users WHERE phone = $4
       UNION SELECT user_id FROM disputes WHERE reference = $5
       UNION (SELECT DISTINCT user_id FROM cards
               WHERE last_four = $6 AND ($1::uuid IS NULL OR user_id < $1::uuid)
               ORDER BY user_id DESC LIMIT $2))
     SELECT ${listColumns}
       FROM (SELECT id FROM matches WHERE ($1::uuid IS NULL OR id < $1::uuid)
              ORDER BY id DESC LIMIT $2) m
       JOIN users u ON u.id = m.id ${withWallet}
      ORDER BY u.id DESC`;

/**
 * Users whose wallet's account number, phone, a card's last four digits or a dispute's
 * reference is the term exactly, through each one's index (migration 0029). A last four
 * can be many customers' (one in 10,000 cards): its branch reads only the page's worth
 * of ids before the cursor, newest first, from the (last_four, user_id) index.
 */
async function identifierMatches(
  db: Queryable,
  term: string,
  search: SearchPage,
): Promise<CustomerListRow[]> {
  const query = identifierMatchesQuery(term, search);
  if (query === null) return [];
  return (await db.query<CustomerListRow>(query.text, query.values)).rows;
}

/** The statement and its values; null when the term can be no identifier. Exported for
 * the test that checks, with EXPLAIN on PostgreSQL, that every branch uses its index. */
export function identifierMatchesQuery(
  term: string,
  search: { cursor: string | null; limit: number },
): { text: string; values: (string | number | null)[] } | null {
  const identifiers = customerSearchIdentifiers(term);
  if (Object.values(identifiers).every((identifier) => identifier === null)) return null;
  return {
    text: identifierMatchesSql,
    values: [
      search.cursor,
      search.limit,
      identifiers.accountNumber,
      identifiers.phone,
      identifiers.disputeReference,
      identifiers.cardLastFour,
    ],
  };
}

/** The id `depth` users older than the cursor (the newest user without one); null if none. */
async function idAtDepth(
  db: Queryable,
  cursor: string | null,
  depth: number,
): Promise<string | null> {
  const found = await db.query<{ id: string }>(
    `SELECT id FROM users WHERE ($1::uuid IS NULL OR id < $1::uuid)
      ORDER BY id DESC OFFSET $2 LIMIT 1`,
    [cursor, depth],
  );
  return found.rows[0]?.id ?? null;
}

/**
 * Matches before the cursor and from `fromId` on, through the trigram indexes; the id
 * range (through users_id_brin_idx) keeps the rows read to those of the range. Only the
 * page's ids are sorted before the wallet and KYC status are looked up.
 */
async function indexedMatches(
  db: Queryable,
  search: SearchPage,
  fromId: string | null,
): Promise<CustomerListRow[]> {
  const found = await db.query<CustomerListRow>(
    `WITH matches AS MATERIALIZED (
       SELECT id FROM users u
        WHERE (${matchesSearch}) AND ($2::uuid IS NULL OR u.id < $2::uuid)
          AND ($3::uuid IS NULL OR u.id >= $3::uuid))
     SELECT ${listColumns}
       FROM (SELECT id FROM matches ORDER BY id DESC LIMIT $4) m
       JOIN users u ON u.id = m.id ${withWallet}
      ORDER BY u.id DESC`,
    [search.pattern, search.cursor, fromId, search.limit],
  );
  return found.rows;
}

/** Exact, from the counter the triggers on users keep (migration 0020), not count(*). */
export async function countUsers(db: Queryable): Promise<number> {
  const counted = await db.query<{ count: bigint }>(
    'SELECT sum(user_count)::bigint AS count FROM user_count_stripes',
  );
  return Number(counted.rows[0]?.count ?? 0n);
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
