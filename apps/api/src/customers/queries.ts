import type { Language } from '@coffer/contracts/languages';
import { customerTimeZone } from '@coffer/contracts/time-zones';
import type { Queryable } from '../db/client.ts';
import type { RowOf } from '../db/rows.ts';
import type { users } from '../db/schema.ts';
import { toLanguage } from '../platform/languages.ts';

/** A user with their wallet's currency and number (staff have none). */
export type UserRow = RowOf<typeof users> & {
  wallet_currency: string | null;
  wallet_number: string | null;
};

/** A user with their wallet's currency and number; `auth` finds one by address with it. */
export const selectUser = `
  SELECT u.*, a.currency AS wallet_currency, a.number AS wallet_number
    FROM users u LEFT JOIN accounts a ON a.owner_user_id = u.id AND a.kind = 'customer' AND a.is_main`;

/** The zone the user's days and times are shown in: theirs, their country's, or ours. */
export function timeZoneOfUser(
  user: Pick<UserRow, 'time_zone' | 'country'>,
  config: { timeZone: string },
): string {
  return customerTimeZone(
    { chosenTimeZone: user.time_zone, country: user.country },
    config.timeZone,
  );
}

/**
 * The language the person chose (signing in adopts it); null until they choose one, when
 * pages follow the browser (migration 0053, ADR 055).
 */
export function chosenLanguageOf(user: Pick<UserRow, 'language'>): Language | null {
  return user.language === null ? null : toLanguage(user.language);
}

export async function findUserById(db: Queryable, userId: string): Promise<UserRow | null> {
  const found = await db.query<UserRow>(`${selectUser} WHERE u.id = $1`, [userId]);
  return found.rows[0] ?? null;
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
