import type { Me, Role } from '@coffer/contracts/auth';
import { findCountry } from '@coffer/contracts/countries';
import { type Language, sourceLanguage } from '@coffer/contracts/languages';

import type { Config } from '../../config.ts';
import {
  chosenLanguageOf,
  selectUser,
  timeZoneOfUser,
  type UserRow,
} from '../../customers/queries.ts';
import type { Queryable } from '../../db/client.ts';
import { isTwoFactorRequiredFor, mustAcceptTerms } from '../../platform/access.ts';

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | null> {
  const found = await db.query<UserRow>(`${selectUser} WHERE u.email = $1`, [email.toLowerCase()]);
  return found.rows[0] ?? null;
}

/** Whether a user has this address (stored lower-cased; `email` is as given). */
export async function isEmailTaken(db: Queryable, email: string): Promise<boolean> {
  const taken = await db.query('SELECT 1 FROM users WHERE email = $1', [email]);
  return taken.rows.length > 0;
}

/** The wallet's currency once opened; staff without a wallet show their country's. */
export function currencyOf(user: UserRow): string {
  return user.wallet_currency ?? findCountry(user.country)?.currency ?? 'USD';
}

/**
 * `config`: whether staff must have two-factor on here (COFFER_STAFF_TWO_FACTOR); `terms`:
 * the terms customers must have accepted (app.terms).
 */
export function toMe(
  user: UserRow,
  config: Pick<Config, 'isStaffTwoFactorRequired' | 'timeZone'>,
  terms: { version: string } | null,
): Me {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    isEmailVerified: user.email_verified_at !== null,
    role: user.role,
    level: user.level,
    hasTotp: user.totp_secret_encrypted !== null,
    isTwoFactorRequired: isTwoFactorRequiredFor(user.role, config),
    mustChangePassword: user.must_change_password,
    country: user.country,
    currency: currencyOf(user),
    timeZone: timeZoneOfUser(user, config),
    language: chosenLanguageOf(user),
    mustAcceptTerms: mustAcceptTerms(
      { role: user.role, acceptedTermsVersion: user.terms_version },
      terms?.version ?? null,
    ),
    frozenReason: user.frozen_at ? (user.frozen_reason ?? '') : null,
  };
}

export async function insertUser(
  tx: Queryable,
  user: {
    id: string;
    username: string;
    email: string;
    phone: string | null;
    country: string;
    role: Role;
    passwordHash: string;
    isEmailVerified: boolean;
    /** The terms version accepted as the account is opened (sign-up, the sandbox's seed). */
    acceptedTermsVersion?: string | null;
    /**
     * The language of the request they signed up in (English when not given): their
     * emails' until they choose one (users.sign_in_language); none is chosen yet.
     */
    signInLanguage?: Language;
  },
): Promise<boolean> {
  const inserted = await tx.query(
    `INSERT INTO users (id, username, email, phone, country, role, password_hash, email_verified_at,
                        terms_version, terms_accepted_at, sign_in_language)
     VALUES ($1, $2, $3, $4, $5, $6, $7, CASE WHEN $8::boolean THEN now() END,
             $9::text, CASE WHEN $9::text IS NOT NULL THEN now() END, $10)
     ON CONFLICT (email) DO NOTHING RETURNING id`,
    [
      user.id,
      user.username,
      user.email,
      user.phone,
      user.country,
      user.role,
      user.passwordHash,
      user.isEmailVerified,
      user.acceptedTermsVersion ?? null,
      user.signInLanguage ?? sourceLanguage,
    ],
  );
  return inserted.rows.length > 0;
}

export async function updatePasswordHash(
  tx: Queryable,
  userId: string,
  passwordHash: string,
): Promise<void> {
  // A password its owner chose (changed, or reset by email) is no longer one to change.
  await tx.query(
    'UPDATE users SET password_hash = $2, must_change_password = false WHERE id = $1',
    [userId, passwordHash],
  );
}

/** A sign-in waiting for its second factor, known by its token's hash until it expires. */
export async function insertLoginChallenge(
  db: Queryable,
  challenge: { tokenHash: string; userId: string; lifetimeMs: number },
): Promise<void> {
  await db.query(
    `INSERT INTO login_challenges (token_hash, user_id, expires_at)
     VALUES ($1, $2, now() + ($3 || ' milliseconds')::interval)`,
    [challenge.tokenHash, challenge.userId, String(challenge.lifetimeMs)],
  );
}

/** Spends one try of a live challenge before its code is compared; false when none is left. */
export async function spendLoginChallengeTry(
  db: Queryable,
  tokenHash: string,
  triesMax: number,
): Promise<boolean> {
  const tried = await db.query(
    `UPDATE login_challenges SET failed_attempts = failed_attempts + 1
      WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() AND failed_attempts < $2
      RETURNING user_id`,
    [tokenHash, triesMax],
  );
  return tried.rows.length > 0;
}

export async function isLoginChallengeLive(db: Queryable, tokenHash: string): Promise<boolean> {
  const live = await db.query(
    'SELECT 1 FROM login_challenges WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()',
    [tokenHash],
  );
  return live.rows.length > 0;
}

/** Locks a live challenge and answers whose it is; null when it is used or expired. */
export async function lockLoginChallenge(tx: Queryable, tokenHash: string): Promise<string | null> {
  const found = await tx.query<{ user_id: string }>(
    `SELECT user_id FROM login_challenges
      WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() FOR UPDATE`,
    [tokenHash],
  );
  return found.rows[0]?.user_id ?? null;
}

export async function markLoginChallengeUsed(tx: Queryable, tokenHash: string): Promise<void> {
  await tx.query('UPDATE login_challenges SET used_at = now() WHERE token_hash = $1', [tokenHash]);
}

/** Records an authenticator step as used, only forward; false when it was used already. */
export async function acceptTotpStep(
  tx: Queryable,
  userId: string,
  step: bigint,
): Promise<boolean> {
  const accepted = await tx.query(
    `UPDATE users SET totp_last_used_step = $2
      WHERE id = $1 AND (totp_last_used_step IS NULL OR totp_last_used_step < $2) RETURNING id`,
    [userId, step],
  );
  return accepted.rows.length > 0;
}

/** Spends an unused recovery code; false when there is none with this hash. */
export async function spendRecoveryCode(
  tx: Queryable,
  userId: string,
  codeHash: string,
): Promise<boolean> {
  const spent = await tx.query(
    `UPDATE recovery_codes SET used_at = now()
      WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL RETURNING user_id`,
    [userId, codeHash],
  );
  return spent.rows.length > 0;
}

/** Makes a verified address the user's; false when another user has it meanwhile. */
export async function replaceEmailVerified(
  tx: Queryable,
  userId: string,
  email: string,
): Promise<boolean> {
  const updated = await tx.query(
    `UPDATE users SET email = $2, email_verified_at = now()
      WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM users WHERE email = $2 AND id <> $1) RETURNING id`,
    [userId, email],
  );
  return updated.rows.length > 0;
}

/** Marks the address verified if it is still the user's. */
export async function markEmailVerified(
  tx: Queryable,
  userId: string,
  email: string,
): Promise<void> {
  await tx.query(
    'UPDATE users SET email_verified_at = coalesce(email_verified_at, now()) WHERE id = $1 AND email = $2',
    [userId, email],
  );
}

/** Whether the person ever held a session, and one from a browser with this user agent. */
export async function deviceHistoryOf(
  tx: Queryable,
  userId: string,
  userAgent: string | null,
): Promise<{ hasSessions: boolean; isKnownDevice: boolean }> {
  const found = await tx.query<{ has_sessions: boolean; is_known_device: boolean }>(
    `SELECT count(*) > 0 AS has_sessions,
            coalesce(bool_or(user_agent IS NOT DISTINCT FROM $2), false) AS is_known_device
       FROM sessions WHERE user_id = $1`,
    [userId, userAgent],
  );
  const row = found.rows[0];
  return { hasSessions: row?.has_sessions ?? false, isKnownDevice: row?.is_known_device ?? false };
}

/** Whose live, unused login challenge this is; null when it is used or expired. */
export async function liveLoginChallengeUser(
  db: Queryable,
  tokenHash: string,
): Promise<string | null> {
  const found = await db.query<{ user_id: string }>(
    `SELECT user_id FROM login_challenges
      WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()`,
    [tokenHash],
  );
  return found.rows[0]?.user_id ?? null;
}

/**
 * Remembers the language of the request that signed the user in: what they are written to
 * in while they have chosen no language (storedLanguage).
 */
export async function recordSignInLanguage(
  db: Queryable,
  userId: string,
  language: Language,
): Promise<void> {
  await db.query(
    'UPDATE users SET sign_in_language = $2 WHERE id = $1 AND sign_in_language <> $2',
    [userId, language],
  );
}
