import type { Queryable } from '../../db/client.ts';

/**
 * Records that the customer accepted this version now. Only a customer who has not accepted
 * it yet is updated, so accepting twice (two tabs) records the first time; false then.
 */
export async function recordTermsAcceptance(
  tx: Queryable,
  userId: string,
  version: string,
): Promise<{ acceptedAt: Date } | null> {
  const updated = await tx.query<{ terms_accepted_at: Date }>(
    `UPDATE users SET terms_version = $2, terms_accepted_at = now()
      WHERE id = $1 AND role = 'customer' AND terms_version IS DISTINCT FROM $2
      RETURNING terms_accepted_at`,
    [userId, version],
  );
  const row = updated.rows[0];
  return row ? { acceptedAt: row.terms_accepted_at } : null;
}
