import type { Role } from '@coffer/contracts/auth';
import type { Queryable } from '../../db/client.ts';

export type CustomerListRow = {
  id: string;
  username: string;
  email: string;
  role: Role;
  level: number;
  is_frozen: boolean;
  currency: string | null;
  balance_minor: bigint | null;
};

function likePattern(search: string): string {
  return `%${search.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/**
 * Newest first, by id (UUIDv7 is time-ordered). The search matches a substring of the
 * name or address, case-insensitively; trigram indexes keep it fast at 100,000 users.
 */
export async function listCustomers(
  db: Queryable,
  query: { search?: string | undefined; cursor?: string | undefined; limit: number },
): Promise<CustomerListRow[]> {
  const pattern = query.search ? likePattern(query.search) : null;
  const found = await db.query<CustomerListRow>(
    `SELECT u.id, u.username, u.email, u.role, u.level, u.frozen_at IS NOT NULL AS is_frozen,
            a.currency, b.balance_minor
       FROM users u
       LEFT JOIN accounts a ON a.owner_user_id = u.id AND a.kind = 'customer'
       LEFT JOIN account_balances b ON b.account_id = a.id AND b.bucket = 0
      WHERE ($1::text IS NULL OR lower(u.username) LIKE $1 OR u.email LIKE $1)
        AND ($2::uuid IS NULL OR u.id < $2::uuid)
      ORDER BY u.id DESC LIMIT $3`,
    [pattern, query.cursor ?? null, query.limit],
  );
  return found.rows;
}

export async function countUsers(db: Queryable): Promise<number> {
  const counted = await db.query<{ count: bigint }>('SELECT count(*)::bigint AS count FROM users');
  return Number(counted.rows[0]?.count ?? 0n);
}
