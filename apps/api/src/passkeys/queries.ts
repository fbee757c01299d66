import type { Queryable } from '../db/client.ts';
import type { passkeyFlows } from '../db/schema.ts';

export type PasskeyFlow = (typeof passkeyFlows)[number];

export type PasskeyRow = {
  id: string;
  user_id: string;
  credential_id: string;
  public_key: string;
  sign_count: bigint;
  transports: string[];
  name: string;
  created_at: Date;
  last_used_at: Date | null;
};

const passkeyColumns =
  'id, user_id, credential_id, public_key, sign_count, transports, name, created_at, last_used_at';

export async function passkeysOf(db: Queryable, userId: string): Promise<PasskeyRow[]> {
  const result = await db.query<PasskeyRow>(
    `SELECT ${passkeyColumns} FROM passkeys WHERE user_id = $1 ORDER BY created_at, id`,
    [userId],
  );
  return result.rows;
}

export async function hasPasskeys(db: Queryable, userId: string): Promise<boolean> {
  const result = await db.query('SELECT 1 FROM passkeys WHERE user_id = $1 LIMIT 1', [userId]);
  return result.rows.length > 0;
}

export async function findPasskeyByCredentialId(
  db: Queryable,
  credentialId: string,
): Promise<PasskeyRow | null> {
  const result = await db.query<PasskeyRow>(
    `SELECT ${passkeyColumns} FROM passkeys WHERE credential_id = $1`,
    [credentialId],
  );
  return result.rows[0] ?? null;
}

/** False when the credential is registered already (to this user or another). */
export async function insertPasskey(
  tx: Queryable,
  passkey: {
    id: string;
    userId: string;
    credentialId: string;
    publicKey: string;
    signCount: number;
    transports: string[];
    name: string;
  },
): Promise<boolean> {
  const result = await tx.query(
    `INSERT INTO passkeys (id, user_id, credential_id, public_key, sign_count, transports, name)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (credential_id) DO NOTHING RETURNING 1`,
    [
      passkey.id,
      passkey.userId,
      passkey.credentialId,
      passkey.publicKey,
      passkey.signCount,
      passkey.transports,
      passkey.name,
    ],
  );
  return result.rows.length > 0;
}

/** Answers the name it had, or null when the user has no such passkey. */
export async function renamePasskey(
  db: Queryable,
  userId: string,
  passkeyId: string,
  name: string,
): Promise<string | null> {
  const result = await db.query<{ before: string }>(
    `UPDATE passkeys p SET name = $3 FROM passkeys old
      WHERE p.id = $2 AND p.user_id = $1 AND old.id = p.id
      RETURNING old.name AS before`,
    [userId, passkeyId, name],
  );
  return result.rows[0]?.before ?? null;
}

/** Answers the removed passkey's name, or null when the user has no such passkey. */
export async function deletePasskey(
  tx: Queryable,
  userId: string,
  passkeyId: string,
): Promise<string | null> {
  const result = await tx.query<{ name: string }>(
    'DELETE FROM passkeys WHERE id = $1 AND user_id = $2 RETURNING name',
    [passkeyId, userId],
  );
  return result.rows[0]?.name ?? null;
}

/**
 * Keeps the authenticator's new signature counter. The counter must move forward (or stay
 * at zero, for authenticators that keep none): two answers read with the same stored
 * counter update it once, and the second is refused as a replay or a clone.
 */
export async function recordPasskeyUse(
  db: Queryable,
  passkeyId: string,
  newSignCount: number,
): Promise<boolean> {
  const result = await db.query(
    `UPDATE passkeys SET sign_count = $2, last_used_at = now()
      WHERE id = $1 AND (sign_count < $2 OR (sign_count = 0 AND $2 = 0))
      RETURNING 1`,
    [passkeyId, newSignCount],
  );
  return result.rows.length > 0;
}

export async function insertPasskeyChallenge(
  db: Queryable,
  challenge: {
    id: string;
    userId: string | null;
    flow: PasskeyFlow;
    challenge: string;
    binding: string | null;
    lifetimeMs: number;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO passkey_challenges (id, user_id, flow, challenge, binding, expires_at)
     VALUES ($1, $2, $3, $4, $5, now() + ($6 || ' milliseconds')::interval)`,
    [
      challenge.id,
      challenge.userId,
      challenge.flow,
      challenge.challenge,
      challenge.binding,
      String(challenge.lifetimeMs),
    ],
  );
}

/**
 * Spends the live challenge an answer claims to sign, if it was made for this flow, user
 * and binding: one statement, so an answer replayed, even at the same moment, finds it
 * spent. False when there is none.
 */
export async function claimPasskeyChallenge(
  db: Queryable,
  wanted: { flow: PasskeyFlow; userId: string | null; binding: string | null; challenge: string },
): Promise<boolean> {
  const result = await db.query(
    `UPDATE passkey_challenges SET consumed_at = now()
      WHERE challenge = $1 AND flow = $2
        AND user_id IS NOT DISTINCT FROM $3 AND binding IS NOT DISTINCT FROM $4
        AND consumed_at IS NULL AND expires_at > now()
      RETURNING 1`,
    [wanted.challenge, wanted.flow, wanted.userId, wanted.binding],
  );
  return result.rows.length > 0;
}
