import type { Database, Queryable } from '../../db/client.ts';
import { newId } from '../../platform/ids.ts';
import type { SecretKeys } from '../../platform/secret-keys.ts';
import { isMissingFile } from './service.ts';
import { DocumentIntegrityError, type DocumentStorage } from './storage.ts';

type RotationDeps = { db: Database; storage: DocumentStorage; secretKeys: SecretKeys };

/** Documents still stored (not removed by the clean-up), counted by the key of their file. */
export async function documentsBySecretKeyId(db: Queryable): Promise<Map<string, number>> {
  const found = await db.query<{ secret_key_id: string; count: number }>(
    `SELECT secret_key_id, count(*)::int AS count FROM kyc_documents
      WHERE deleted_at IS NULL GROUP BY secret_key_id`,
  );
  return new Map(found.rows.map((row) => [row.secret_key_id, row.count]));
}

type StoredDocument = { id: string; storage_key: string; secret_key_id: string; sha256: string };

/**
 * Re-encrypts up to `batchSize` documents after `afterId` (in id order) that another key
 * than the current one encrypted. Each is copied to a new file under the current key while
 * the app keeps serving the old one; then one transaction points the rows to the new files,
 * each only if its row still names the old file and the document is still kept (a
 * compare-and-set: the clean-up may remove one meanwhile). The old files go after the commit.
 * A crash leaves files no row names, which the clean-up removes. A file that fails its
 * integrity check, or whose bytes are not the ones recorded, is refused and left as it is.
 */
export async function rotateDocumentBatch(
  deps: RotationDeps,
  afterId: string,
  batchSize: number,
): Promise<{ lastId: string | null; rotated: number; refusedIds: string[] }> {
  const batch = await deps.db.query<StoredDocument>(
    `SELECT id, storage_key, secret_key_id, sha256 FROM kyc_documents
      WHERE deleted_at IS NULL AND secret_key_id <> $1 AND id > $2
      ORDER BY id LIMIT $3`,
    [deps.secretKeys.current.id, afterId, batchSize],
  );
  const copies: { document: StoredDocument; storageKey: string }[] = [];
  const refusedIds: string[] = [];
  for (const document of batch.rows) {
    const storageKey = newId();
    try {
      const source = await deps.storage.read(document.storage_key, document.secret_key_id);
      const { sha256 } = await deps.storage.write(storageKey, source);
      if (sha256 === document.sha256) {
        copies.push({ document, storageKey });
        continue;
      }
      await deps.storage.remove(storageKey);
      refusedIds.push(document.id);
    } catch (error) {
      if (error instanceof DocumentIntegrityError) refusedIds.push(document.id);
      // Removed by the clean-up since the batch was read: nothing left to rotate.
      else if (!isMissingFile(error)) throw error;
    }
  }
  const movedIds = await deps.db
    .transaction(async (tx) => {
      const moved = new Set<string>();
      for (const { document, storageKey } of copies) {
        const updated = await tx.query(
          `UPDATE kyc_documents SET storage_key = $3, secret_key_id = $4
            WHERE id = $1 AND storage_key = $2 AND deleted_at IS NULL RETURNING id`,
          [document.id, document.storage_key, storageKey, deps.secretKeys.current.id],
        );
        if (updated.rows.length === 1) moved.add(document.id);
      }
      return moved;
    })
    .catch(async (error: unknown) => {
      for (const { storageKey } of copies) await deps.storage.remove(storageKey);
      throw error;
    });
  for (const { document, storageKey } of copies) {
    const isMoved = movedIds.has(document.id);
    await deps.storage.remove(isMoved ? document.storage_key : storageKey);
  }
  return { lastId: batch.rows.at(-1)?.id ?? null, rotated: movedIds.size, refusedIds };
}
