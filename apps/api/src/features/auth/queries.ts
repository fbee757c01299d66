import type { Me, Role } from '@coffer/contracts/auth';
import { findCountry } from '@coffer/contracts/countries';
import type { Queryable } from '../../db/client.ts';

export type UserRow = {
  id: string;
  username: string;
  email: string;
  email_verified_at: Date | null;
  phone: string | null;
  country: string;
  role: Role;
  level: number;
  password_hash: string;
  totp_secret_encrypted: string | null;
  totp_pending_secret_encrypted: string | null;
  totp_last_used_step: bigint | null;
  frozen_at: Date | null;
  frozen_reason: string | null;
  created_at: Date;
  wallet_currency: string | null;
  wallet_number: string | null;
};

const selectUser = `
  SELECT u.*, a.currency AS wallet_currency, a.number AS wallet_number
    FROM users u LEFT JOIN accounts a ON a.owner_user_id = u.id AND a.kind = 'customer'`;

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | null> {
  const found = await db.query<UserRow>(`${selectUser} WHERE u.email = $1`, [email.toLowerCase()]);
  return found.rows[0] ?? null;
}

export async function findUserById(db: Queryable, userId: string): Promise<UserRow | null> {
  const found = await db.query<UserRow>(`${selectUser} WHERE u.id = $1`, [userId]);
  return found.rows[0] ?? null;
}

/** The wallet's currency once opened; staff without a wallet show their country's. */
export function currencyOf(user: UserRow): string {
  return user.wallet_currency ?? findCountry(user.country)?.currency ?? 'USD';
}

export function toMe(user: UserRow): Me {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    isEmailVerified: user.email_verified_at !== null,
    role: user.role,
    level: user.level,
    hasTotp: user.totp_secret_encrypted !== null,
    country: user.country,
    currency: currencyOf(user),
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
  },
): Promise<boolean> {
  const inserted = await tx.query(
    `INSERT INTO users (id, username, email, phone, country, role, password_hash, email_verified_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, CASE WHEN $8::boolean THEN now() END)
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
    ],
  );
  return inserted.rows.length > 0;
}

export async function updatePasswordHash(
  tx: Queryable,
  userId: string,
  passwordHash: string,
): Promise<void> {
  await tx.query('UPDATE users SET password_hash = $2 WHERE id = $1', [userId, passwordHash]);
}
