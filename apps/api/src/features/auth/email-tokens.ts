import type { Queryable } from '../../db/client.ts';
import { randomToken, sha256Hex } from '../../platform/crypto.ts';

export type EmailTokenPurpose = 'verify_email' | 'reset_password';

export const emailTokenTtlMs: Record<EmailTokenPurpose, number> = {
  verify_email: 48 * 60 * 60 * 1000,
  reset_password: 30 * 60 * 1000,
};

/** A single-use link token; only its hash is stored. Earlier unused ones of the same purpose stop working. */
export async function createEmailToken(
  tx: Queryable,
  token: { userId: string; purpose: EmailTokenPurpose; email: string },
): Promise<string> {
  await tx.query(
    `UPDATE email_tokens SET used_at = now()
      WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL`,
    [token.userId, token.purpose],
  );
  const value = randomToken();
  await tx.query(
    `INSERT INTO email_tokens (token_hash, user_id, purpose, email, expires_at)
     VALUES ($1, $2, $3, $4, now() + ($5 || ' milliseconds')::interval)`,
    [
      sha256Hex(value),
      token.userId,
      token.purpose,
      token.email,
      String(emailTokenTtlMs[token.purpose]),
    ],
  );
  return value;
}

/** Marks the token used and returns it, or null if unknown, used or expired. */
export async function consumeEmailToken(
  tx: Queryable,
  value: string,
  purpose: EmailTokenPurpose,
): Promise<{ userId: string; email: string; previousEmail: string } | null> {
  const consumed = await tx.query<{ user_id: string; email: string; previous_email: string }>(
    `UPDATE email_tokens t SET used_at = now() FROM users u
      WHERE t.token_hash = $1 AND t.purpose = $2 AND t.used_at IS NULL AND t.expires_at > now()
        AND u.id = t.user_id
      RETURNING t.user_id, t.email, u.email AS previous_email`,
    [sha256Hex(value), purpose],
  );
  const row = consumed.rows[0];
  return row ? { userId: row.user_id, email: row.email, previousEmail: row.previous_email } : null;
}

/** The address a verification link is waiting on, when it differs from the current one. */
export async function findPendingEmail(
  db: Queryable,
  userId: string,
  currentEmail: string,
): Promise<string | null> {
  const pending = await db.query<{ email: string }>(
    `SELECT email FROM email_tokens
      WHERE user_id = $1 AND purpose = 'verify_email' AND used_at IS NULL
        AND expires_at > now() AND email <> $2
      ORDER BY created_at DESC LIMIT 1`,
    [userId, currentEmail],
  );
  return pending.rows[0]?.email ?? null;
}
