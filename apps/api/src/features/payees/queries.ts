import type { PayeeKind, PayeeTarget } from '@coffer/contracts/payees';
import type { Queryable } from '../../db/client.ts';

export type PayeeRow = {
  id: string;
  user_id: string;
  nickname: string;
  kind: PayeeKind;
  target: PayeeTarget;
  target_key: string;
  created_at: Date;
};

export async function payeesOfUser(db: Queryable, userId: string): Promise<PayeeRow[]> {
  const found = await db.query<PayeeRow>(
    'SELECT * FROM payees WHERE user_id = $1 ORDER BY lower(nickname), created_at',
    [userId],
  );
  return found.rows;
}

export async function countPayees(db: Queryable, userId: string): Promise<number> {
  const found = await db.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM payees WHERE user_id = $1',
    [userId],
  );
  return found.rows[0]?.count ?? 0;
}

export async function isPayeeSaved(
  db: Queryable,
  userId: string,
  targetKey: string,
): Promise<boolean> {
  const found = await db.query('SELECT 1 FROM payees WHERE user_id = $1 AND target_key = $2', [
    userId,
    targetKey,
  ]);
  return found.rows.length > 0;
}

/**
 * Orders a customer's adds on their user row, so that two adds at once cannot both see
 * room for one more payee under the limit.
 */
export async function lockPayeesOf(tx: Queryable, userId: string): Promise<void> {
  await tx.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [userId]);
}

/** Saves a payee; null when the customer has one with this key already. */
export async function insertPayee(
  tx: Queryable,
  payee: Omit<PayeeRow, 'created_at'>,
): Promise<PayeeRow | null> {
  const inserted = await tx.query<PayeeRow>(
    `INSERT INTO payees (id, user_id, nickname, kind, target, target_key)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (user_id, target_key) DO NOTHING
     RETURNING *`,
    [
      payee.id,
      payee.user_id,
      payee.nickname,
      payee.kind,
      JSON.stringify(payee.target),
      payee.target_key,
    ],
  );
  return inserted.rows[0] ?? null;
}

/** Renames the customer's own payee; null when they have none with this id. */
export async function renamePayeeOf(
  tx: Queryable,
  where: { userId: string; payeeId: string },
  nickname: string,
): Promise<{ before: string; row: PayeeRow } | null> {
  const renamed = await tx.query<PayeeRow & { before: string }>(
    `UPDATE payees p SET nickname = $3
       FROM (SELECT id, nickname AS before FROM payees WHERE id = $1 AND user_id = $2 FOR UPDATE) old
      WHERE p.id = old.id
      RETURNING p.*, old.before`,
    [where.payeeId, where.userId, nickname],
  );
  const row = renamed.rows[0];
  return row ? { before: row.before, row } : null;
}

/** Deletes the customer's own payee; null when they have none with this id. */
export async function deletePayeeOf(
  tx: Queryable,
  where: { userId: string; payeeId: string },
): Promise<PayeeRow | null> {
  const deleted = await tx.query<PayeeRow>(
    'DELETE FROM payees WHERE id = $1 AND user_id = $2 RETURNING *',
    [where.payeeId, where.userId],
  );
  return deleted.rows[0] ?? null;
}
