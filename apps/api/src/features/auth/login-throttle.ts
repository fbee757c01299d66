import type { Queryable } from '../../db/client.ts';
import { sha256Hex } from '../../platform/crypto.ts';

/** Failures allowed per address in the window before it locks. */
export const loginFailuresMax = 5;
export const loginFailureWindowMs = 15 * 60 * 1000;
const firstLockMs = 60 * 1000;
const lockMsMax = 24 * 60 * 60 * 1000;

// Keyed by the address typed, whether or not an account has it, so that locking out
// tells an attacker nothing about which addresses exist. Step-up by authenticator uses
// its own key (`step-up:<user id>`).
const keyOf = (key: string) => sha256Hex(`login:${key.trim().toLowerCase()}`);

/**
 * Counts an attempt before it is checked, in one statement, and says whether it may be
 * made: false while the address is locked (that refusal is not counted). The fifth
 * attempt in a 15-minute window locks the address for a minute, each one after a lock
 * for twice as long as the last, up to a day. Because the count comes first, parallel
 * guesses cannot all be checked before any of them is counted. A success then clears
 * the count (`clearLoginFailures`) or gives its attempt back (`giveBackLoginAttempt`).
 */
export async function claimLoginAttempt(db: Queryable, key: string): Promise<boolean> {
  const isWindowOver = `t.window_started_at < now() - ($2 || ' milliseconds')::interval`;
  const countAfter = `CASE WHEN ${isWindowOver} THEN 1 ELSE t.failure_count + 1 END`;
  const claimed = await db.query(
    `INSERT INTO login_throttles AS t (email_hash, failure_count, window_started_at)
     VALUES ($1, 1, now())
     ON CONFLICT (email_hash) DO UPDATE SET
       failure_count = ${countAfter},
       window_started_at = CASE WHEN ${isWindowOver} THEN now() ELSE t.window_started_at END,
       locked_until = CASE WHEN ${countAfter} >= $3
         THEN now() + (least($4::float8 * power(2, ${countAfter} - $3), $5::float8) || ' milliseconds')::interval
         END
     WHERE coalesce(t.locked_until, now()) <= now()
     RETURNING failure_count`,
    [keyOf(key), String(loginFailureWindowMs), loginFailuresMax, firstLockMs, lockMsMax],
  );
  return claimed.rows.length > 0;
}

/** A success: the failures before it are forgiven. */
export async function clearLoginFailures(db: Queryable, key: string): Promise<void> {
  await db.query('DELETE FROM login_throttles WHERE email_hash = $1', [keyOf(key)]);
}

/**
 * A success that keeps the failures before it: its own attempt is uncounted, and the
 * lock it may have set is lifted (it was claimed unlocked, so no other lock is running).
 */
export async function giveBackLoginAttempt(db: Queryable, key: string): Promise<void> {
  await db.query(
    `UPDATE login_throttles SET failure_count = failure_count - 1, locked_until = NULL
      WHERE email_hash = $1 AND failure_count > 0`,
    [keyOf(key)],
  );
}
