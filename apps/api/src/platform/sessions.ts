import type { Role } from '@coffer/contracts/auth';
import type { FastifyReply } from 'fastify';
import type { Config } from '../config.ts';
import type { Queryable } from '../db/client.ts';
import { type FailureLimit, spendAttemptStatement } from './attempt-counters.ts';
import { randomToken, sha256Hex } from './crypto.ts';
import { eventsChannel, sessionRevocationPayload } from './events.ts';
import { newId } from './ids.ts';

export const sessionIdleTimeoutMs = 30 * 60 * 1000;
export const sessionAbsoluteTimeoutMs = 12 * 60 * 60 * 1000;
// Writing last_used_at on every request would turn every read into a write.
const lastUsedWriteIntervalMs = 60 * 1000;
const userAgentLengthMax = 400;

export type SessionContext = {
  sessionId: string;
  userId: string;
  role: Role;
  isEmailVerified: boolean;
  /** Two-factor is on: where staff must have it (COFFER_STAFF_TWO_FACTOR), access reads it. */
  hasTotp: boolean;
  /** The password was set by someone else: access answers only the routes that change it. */
  mustChangePassword: boolean;
  /** The terms version the person last accepted: access compares it with the current one. */
  acceptedTermsVersion: string | null;
  /**
   * A customer's wallet, which never changes (staff have none): read with the session
   * so that a money route needs no query of its own to know where money leaves from.
   */
  wallet: { id: string; currency: string } | null;
};

export function sessionCookieName(config: Config): string {
  // __Host- cookies must be Secure, path /, without Domain: only sent to this origin.
  return config.isHttps ? '__Host-coffer_session' : 'coffer_session';
}

export async function createSession(
  tx: Queryable,
  session: { userId: string; userAgent: string | undefined; ipAddress: string | undefined },
): Promise<{ token: string; sessionId: string }> {
  const token = randomToken();
  const sessionId = newId();
  await tx.query(
    `INSERT INTO sessions (id, token_hash, user_id, user_agent, ip_address, expires_at)
     VALUES ($1, $2, $3, $4, $5, now() + ($6 || ' milliseconds')::interval)`,
    [
      sessionId,
      sha256Hex(token),
      session.userId,
      session.userAgent?.slice(0, userAgentLengthMax) ?? null,
      session.ipAddress ?? null,
      String(sessionAbsoluteTimeoutMs),
    ],
  );
  return { token, sessionId };
}

/** A live session as the look-up reads it (`sessionFromRow` makes its SessionContext). */
export type SessionRow = {
  id: string;
  user_id: string;
  role: Role;
  email_verified_at: Date | null;
  has_totp: boolean;
  must_change_password: boolean;
  terms_version: string | null;
  wallet_id: string | null;
  wallet_currency: string | null;
  is_stale: boolean;
};

const activeSessionSql = `SELECT s.id, s.user_id, u.role, u.email_verified_at,
            u.totp_secret_encrypted IS NOT NULL AS has_totp, u.must_change_password,
            u.terms_version,
            w.id AS wallet_id, w.currency AS wallet_currency,
            s.last_used_at < now() - ($3 || ' milliseconds')::interval AS is_stale
       FROM sessions s JOIN users u ON u.id = s.user_id
       LEFT JOIN accounts w ON w.owner_user_id = u.id AND w.kind = 'customer' AND w.is_main
      WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > now()
        AND u.closed_at IS NULL
        AND s.last_used_at > now() - ($2 || ' milliseconds')::interval`;

/**
 * The session look-up that also spends one of its user's requests under a route's limit,
 * as two common table expressions, `session` and `spent` (a row when one was spent), for a
 * statement to build on: parameters $1 to $6 are `sessionLookUpParams`' (the limit's name,
 * window and maximum last). The key is attempt-counters' `name:user:<id>`. Quick Pay's
 * statement pays after them (ADR 057); `findActiveSession` only reads them.
 */
export const sessionSpendingCtes = `session AS (${activeSessionSql}),
  spent AS (${spendAttemptStatement({
    keyHashes: `SELECT encode(sha256(convert_to($4 || ':user:' || user_id::text, 'UTF8')), 'hex')
                  FROM session`,
    windowMs: '$5',
    max: '$6',
  })})`;

/**
 * The session look-up that spends a request: a limited route costs no statement of its own
 * (ADR 017). Its commit does not wait for the disk (ADR 024): a request limit that forgets
 * the last fraction of a second of spending after a database crash harms nobody, while
 * waiting made every limited request pay a second flush beside the one its own work needs.
 * Its transaction is this one statement, so the setting ends with it.
 */
const activeSessionSpendingSql = `WITH ${sessionSpendingCtes},
  commit_without_flush AS (SELECT set_config('synchronous_commit', 'off', true))
  SELECT session.*, EXISTS (SELECT 1 FROM spent) AS is_spent FROM session, commit_without_flush`;

/** The parameters $1 to $6 of `sessionSpendingCtes` (and $1 to $3 of the plain look-up). */
export function sessionLookUpParams(tokenHash: string, limit: FailureLimit | null): unknown[] {
  const lookUp = [tokenHash, String(sessionIdleTimeoutMs), String(lastUsedWriteIntervalMs)];
  return limit ? [...lookUp, limit.name, String(limit.windowMs), limit.max] : lookUp;
}

/**
 * The session a look-up found, its last use written when it is stale: once a minute at
 * most, because writing it on every request would turn every read into a write.
 */
export async function sessionFromRow(db: Queryable, row: SessionRow): Promise<SessionContext> {
  if (row.is_stale)
    await db.query('UPDATE sessions SET last_used_at = now() WHERE id = $1', [row.id]);
  return {
    sessionId: row.id,
    userId: row.user_id,
    role: row.role,
    isEmailVerified: row.email_verified_at !== null,
    hasTotp: row.has_totp,
    mustChangePassword: row.must_change_password,
    acceptedTermsVersion: row.terms_version,
    wallet:
      row.wallet_id && row.wallet_currency
        ? { id: row.wallet_id, currency: row.wallet_currency }
        : null,
  };
}

/**
 * The live session for a cookie token, or null when unknown, revoked, idle or expired.
 * With a `limit`, one of the user's requests under it is spent in the same statement;
 * `isOverLimit` says none was left.
 */
export async function findActiveSession(
  db: Queryable,
  token: string,
  limit: FailureLimit | null = null,
): Promise<{ session: SessionContext | null; isOverLimit: boolean }> {
  const params = sessionLookUpParams(sha256Hex(token), limit);
  // Every signed-in request asks one of these.
  const found = limit
    ? await db.query<SessionRow & { is_spent: boolean }>(activeSessionSpendingSql, params, {
        preparedName: 'find_active_session_spending',
      })
    : await db.query<SessionRow>(activeSessionSql, params, {
        preparedName: 'find_active_session',
      });
  const row = found.rows[0];
  if (!row) return { session: null, isOverLimit: false };
  const session = await sessionFromRow(db, row);
  return { session, isOverLimit: 'is_spent' in row && !row.is_spent };
}

// Every revocation (logout, "revoke", "sign out other sessions", password change or
// reset, a new login over an old session) comes through these two functions. Each
// announces itself in the statement that revokes, delivered when it commits to every API
// process: the live event streams opened with those sessions end at once (ADR 013).

export async function revokeSession(
  tx: Queryable,
  userId: string,
  sessionId: string,
): Promise<boolean> {
  const revoked = await tx.query(
    `WITH revoked AS (
       UPDATE sessions SET revoked_at = now()
        WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL RETURNING id
     )
     SELECT id, pg_notify($3, $4) AS announced FROM revoked`,
    [sessionId, userId, eventsChannel, sessionRevocationPayload({ userId, sessionId })],
  );
  return revoked.rows.length > 0;
}

export async function revokeUserSessions(
  tx: Queryable,
  userId: string,
  options: { exceptSessionId?: string } = {},
): Promise<void> {
  const keptSessionId = options.exceptSessionId;
  await tx.query(
    `WITH revoked AS (
       UPDATE sessions SET revoked_at = now()
        WHERE user_id = $1 AND revoked_at IS NULL AND ($2::uuid IS NULL OR id <> $2::uuid)
        RETURNING id
     )
     SELECT pg_notify($3, $4) AS announced WHERE EXISTS (SELECT 1 FROM revoked)`,
    [
      userId,
      keptSessionId ?? null,
      eventsChannel,
      sessionRevocationPayload(keptSessionId ? { userId, keptSessionId } : { userId }),
    ],
  );
}

export function setSessionCookie(reply: FastifyReply, config: Config, token: string): void {
  reply.setCookie(sessionCookieName(config), token, {
    httpOnly: true,
    secure: config.isHttps,
    sameSite: 'lax',
    path: '/',
    maxAge: sessionAbsoluteTimeoutMs / 1000,
  });
}

export function clearSessionCookie(reply: FastifyReply, config: Config): void {
  reply.clearCookie(sessionCookieName(config), {
    httpOnly: true,
    secure: config.isHttps,
    sameSite: 'lax',
    path: '/',
  });
}
