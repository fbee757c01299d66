import type { Language } from '@coffer/contracts/languages';
import type { Queryable } from '../../db/client.ts';
import type { RowOf } from '../../db/rows.ts';
import type { sessions } from '../../db/schema.ts';

/** The user's name, locked, so that two renames at once each see the one they replace. */
export async function lockUsername(tx: Queryable, userId: string): Promise<string | null> {
  const current = await tx.query<{ username: string }>(
    'SELECT username FROM users WHERE id = $1 FOR UPDATE',
    [userId],
  );
  return current.rows[0]?.username ?? null;
}

/** Locks the user's row and answers their chosen zone (null: none chosen); undefined: no user. */
export async function lockTimeZone(
  tx: Queryable,
  userId: string,
): Promise<string | null | undefined> {
  const found = await tx.query<{ time_zone: string | null }>(
    'SELECT time_zone FROM users WHERE id = $1 FOR UPDATE',
    [userId],
  );
  return found.rows[0]?.time_zone;
}

export async function saveTimeZone(tx: Queryable, userId: string, timeZone: string): Promise<void> {
  await tx.query('UPDATE users SET time_zone = $2 WHERE id = $1', [userId, timeZone]);
}

/** False when there is no such user. */
export async function saveLanguage(
  db: Queryable,
  userId: string,
  language: Language,
): Promise<boolean> {
  const saved = await db.query('UPDATE users SET language = $2 WHERE id = $1 RETURNING id', [
    userId,
    language,
  ]);
  return saved.rows.length > 0;
}

export async function saveUsername(tx: Queryable, userId: string, username: string): Promise<void> {
  await tx.query('UPDATE users SET username = $2 WHERE id = $1', [userId, username]);
}

/** Keeps an authenticator key, encrypted, until its first code confirms it. */
export async function setPendingTotpSecret(
  db: Queryable,
  userId: string,
  encryptedSecret: string,
): Promise<void> {
  await db.query('UPDATE users SET totp_pending_secret_encrypted = $2 WHERE id = $1', [
    userId,
    encryptedSecret,
  ]);
}

/** The pending key becomes the key, its first code's step used; new recovery codes replace the old. */
export async function confirmTotp(
  tx: Queryable,
  userId: string,
  enrolment: { firstStep: bigint; recoveryCodeHashes: string[] },
): Promise<void> {
  await tx.query(
    `UPDATE users SET totp_secret_encrypted = totp_pending_secret_encrypted,
            totp_pending_secret_encrypted = NULL, totp_last_used_step = $2 WHERE id = $1`,
    [userId, enrolment.firstStep],
  );
  await tx.query('DELETE FROM recovery_codes WHERE user_id = $1', [userId]);
  for (const codeHash of enrolment.recoveryCodeHashes) {
    await tx.query('INSERT INTO recovery_codes (user_id, code_hash) VALUES ($1, $2)', [
      userId,
      codeHash,
    ]);
  }
}

export async function removeTotp(tx: Queryable, userId: string): Promise<void> {
  await tx.query(
    'UPDATE users SET totp_secret_encrypted = NULL, totp_pending_secret_encrypted = NULL, totp_last_used_step = NULL WHERE id = $1',
    [userId],
  );
  await tx.query('DELETE FROM recovery_codes WHERE user_id = $1', [userId]);
}

export type ActiveSessionRow = Pick<
  RowOf<typeof sessions>,
  'id' | 'user_agent' | 'ip_address' | 'created_at' | 'last_used_at'
>;

/** The user's sessions used in the last 30 minutes, most recent first. */
export async function activeSessionsOf(db: Queryable, userId: string): Promise<ActiveSessionRow[]> {
  const found = await db.query<ActiveSessionRow>(
    `SELECT id, user_agent, ip_address, created_at, last_used_at FROM sessions
      WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > now()
        AND last_used_at > now() - interval '30 minutes'
      ORDER BY last_used_at DESC LIMIT 50`,
    [userId],
  );
  return found.rows;
}
