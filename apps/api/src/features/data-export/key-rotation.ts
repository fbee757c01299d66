import type { Queryable } from '../../db/client.ts';

// Export zips are encrypted with COFFER_SECRET_KEY's current key, as identity documents are.
// They live seven days, so a key rotation does not re-encrypt them: it ends the ones an
// older key encrypted (the customer asks again), and the expiry job removes their files,
// which needs no key (ADR 049).

/** Downloadable exports (ready, not yet expired), counted by the key of their file. */
export async function exportsBySecretKeyId(db: Queryable): Promise<Map<string, number>> {
  const found = await db.query<{ secret_key_id: string; count: number }>(
    `SELECT secret_key_id, count(*)::int AS count FROM data_exports
      WHERE status = 'ready' AND expires_at > now() GROUP BY secret_key_id`,
  );
  return new Map(found.rows.map((row) => [row.secret_key_id, row.count]));
}

/**
 * Ends up to `batchSize` downloadable exports after `afterId` (in id order) that another
 * key than the current one encrypted: they expire now, and the hourly expiry job removes
 * their files.
 */
export async function expireExportBatch(
  db: Queryable,
  currentKeyId: string,
  afterId: string,
  batchSize: number,
): Promise<{ lastId: string | null; rotated: number; refusedIds: string[] }> {
  const batch = await db.query<{ id: string }>(
    `SELECT id FROM data_exports
      WHERE status = 'ready' AND expires_at > now() AND secret_key_id <> $1 AND id > $2
      ORDER BY id LIMIT $3`,
    [currentKeyId, afterId, batchSize],
  );
  const ids = batch.rows.map((row) => row.id);
  const expired = await db.query(
    `UPDATE data_exports SET expires_at = now()
      WHERE id = ANY($1::uuid[]) AND status = 'ready' AND expires_at > now() RETURNING id`,
    [ids],
  );
  return { lastId: ids.at(-1) ?? null, rotated: expired.rows.length, refusedIds: [] };
}
