import type { Queryable } from '../../db/client.ts';
import { sha256Hex } from '../../platform/crypto.ts';

/** Failures allowed per address in the window before it locks. */
export const loginFailuresMax = 5;
export const loginFailureWindowMs = 15 * 60 * 1000;
const firstLockMs = 60 * 1000;
const lockMsMax = 24 * 60 * 60 * 1000;

// Keyed by the address typed, whether or not an account has it, so that locking out
// tells an attacker nothing about which addresses exist.
const keyOf = (email: string) => sha256Hex(`login:${email.trim().toLowerCase()}`);

export async function isLoginLocked(db: Queryable, email: string): Promise<boolean> {
  const found = await db.query<{ is_locked: boolean }>(
    'SELECT locked_until > now() AS is_locked FROM login_throttles WHERE email_hash = $1',
    [keyOf(email)],
  );
  return found.rows[0]?.is_locked === true;
}

/**
 * Counts a failure. From the fifth in a 15-minute window on, each failure locks the
 * address for twice as long as the last: 1 min, 2, 4 … up to a day.
 */
export async function recordLoginFailure(db: Queryable, email: string): Promise<void> {
  await db.query(
    `INSERT INTO login_throttles AS t (email_hash, failure_count, window_started_at)
     VALUES ($1, 1, now())
     ON CONFLICT (email_hash) DO UPDATE SET
       failure_count = CASE WHEN t.window_started_at < now() - ($2 || ' milliseconds')::interval
                             AND coalesce(t.locked_until, now()) <= now()
                            THEN 1 ELSE t.failure_count + 1 END,
       window_started_at = CASE WHEN t.window_started_at < now() - ($2 || ' milliseconds')::interval
                                 AND coalesce(t.locked_until, now()) <= now()
                                THEN now() ELSE t.window_started_at END`,
    [keyOf(email), String(loginFailureWindowMs)],
  );
  await db.query(
    `UPDATE login_throttles
        SET locked_until = now() + (least($2::float8 * power(2, failure_count - $3), $4::float8) || ' milliseconds')::interval
      WHERE email_hash = $1 AND failure_count >= $3`,
    [keyOf(email), firstLockMs, loginFailuresMax, lockMsMax],
  );
}

export async function clearLoginFailures(db: Queryable, email: string): Promise<void> {
  await db.query('DELETE FROM login_throttles WHERE email_hash = $1', [keyOf(email)]);
}
