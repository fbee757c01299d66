import type { Queryable } from '../db/client.ts';
import type { RowOf } from '../db/rows.ts';
import type { roleGrants } from '../db/schema.ts';

export type StaffName = { id: string; username: string };

export async function adminNames(db: Queryable): Promise<StaffName[]> {
  const admins = await db.query<StaffName>(
    "SELECT id, username FROM users WHERE role = 'admin' ORDER BY username",
  );
  return admins.rows;
}

/** An approved admin grant: who requested it and who approved it. */
export type AdminGrantRow = Pick<RowOf<typeof roleGrants>, 'user_id' | 'requested_by_user_id'> & {
  decided_by_user_id: string;
};

/** Who requested and who approved each admin's promotion. */
export async function approvedStaffGrants(db: Queryable): Promise<AdminGrantRow[]> {
  const grants = await db.query<AdminGrantRow>(
    `SELECT user_id, requested_by_user_id, decided_by_user_id FROM role_grants
      WHERE status = 'approved'`,
  );
  return grants.rows;
}

/**
 * Adds `amountMinor` to the maker's posted total of the UTC day in one conditional upsert,
 * unless it would go over `dailyTotalMinor`: the row stays locked until the transaction
 * ends, so a concurrent posting waits and then sees this one. False when it would.
 * (The table keeps its first name, four_eyes_daily_totals: ADR 035.)
 */
export async function addToDailyTotal(
  tx: Queryable,
  spend: { makerUserId: string; currency: string; amountMinor: bigint; dailyTotalMinor: bigint },
): Promise<boolean> {
  const spent = await tx.query(
    `INSERT INTO four_eyes_daily_totals AS t (maker_user_id, currency, day, posted_minor)
     VALUES ($1, $2, (now() AT TIME ZONE 'UTC')::date, $3)
     ON CONFLICT (maker_user_id, currency, day) DO UPDATE
        SET posted_minor = t.posted_minor + EXCLUDED.posted_minor
      WHERE t.posted_minor + EXCLUDED.posted_minor <= $4
     RETURNING posted_minor`,
    [spend.makerUserId, spend.currency, spend.amountMinor, spend.dailyTotalMinor],
  );
  return spent.rows.length > 0;
}
