// What COFFER_SECRET_KEY's keys encrypt, counted by key, and `npm run rotate-keys`, which
// re-encrypts it all under the current key (docs/OPERATIONS.md, "Key rotation").
import { ConfigError } from './config.ts';
import type { Database, Queryable } from './db/client.ts';
import { expireExportBatch, exportsBySecretKeyId } from './features/data-export/key-rotation.ts';
import { documentsBySecretKeyId, rotateDocumentBatch } from './features/kyc/key-rotation.ts';
import type { DocumentStorage } from './features/kyc/storage.ts';
import { recordAudit } from './platform/audit.ts';
import { decryptSecret, encryptSecret } from './platform/crypto.ts';
import { legacyKeyId, type SecretKeys } from './platform/secret-keys.ts';

/** Records encrypted with one key. */
export type KeyUse = {
  authenticatorSecrets: number;
  identityDocuments: number;
  /** Webhook endpoints' signing secrets, the one before a roll counted too (ADR 048). */
  webhookSecrets: number;
  /** Data exports still downloadable: a rotation ends them rather than re-encrypt (ADR 049). */
  dataExports: number;
};

const noUse = (): KeyUse => ({
  authenticatorSecrets: 0,
  identityDocuments: 0,
  webhookSecrets: 0,
  dataExports: 0,
});
const recordsOf = (use: KeyUse) =>
  use.authenticatorSecrets + use.identityDocuments + use.webhookSecrets + use.dataExports;

/**
 * The id of the key a sealed authenticator secret names, in SQL (platform/crypto.ts writes
 * "v1.{id}.…" for every key but the legacy one, whose secrets carry no id).
 */
function sealedKeyIdSql(column: string): string {
  return `CASE WHEN ${column} LIKE 'v1.%' THEN split_part(${column}, '.', 2) ELSE '${legacyKeyId}' END`;
}

/** A table whose rows hold secrets sealed by platform/crypto.ts, in these columns. */
type SealedColumns = { table: string; columns: readonly string[] };

/** The sealed columns of users: the authenticator key, and one waiting for its first code. */
const authenticatorSecrets: SealedColumns = {
  table: 'users',
  columns: ['totp_secret_encrypted', 'totp_pending_secret_encrypted'],
};
/** A webhook endpoint's signing secret, and the one before its last roll. */
const webhookSecrets: SealedColumns = {
  table: 'webhook_endpoints',
  columns: ['secret_encrypted', 'previous_secret_encrypted'],
};

async function sealedBySecretKeyId(
  db: Queryable,
  { table, columns }: SealedColumns,
): Promise<Map<string, number>> {
  const found = await db.query<{ key_id: string; count: number }>(
    `SELECT key_id, count(*)::int AS count FROM (${columns
      .map(
        (column) =>
          `SELECT ${sealedKeyIdSql(column)} AS key_id FROM ${table} WHERE ${column} IS NOT NULL`,
      )
      .join(' UNION ALL ')}) sealed GROUP BY key_id`,
  );
  return new Map(found.rows.map((row) => [row.key_id, row.count]));
}

/** Everything encrypted at rest, counted by the id of the key it needs. */
export async function secretKeyUse(db: Queryable): Promise<Map<string, KeyUse>> {
  const use = new Map<string, KeyUse>();
  const at = (keyId: string) => {
    const found = use.get(keyId) ?? noUse();
    use.set(keyId, found);
    return found;
  };
  for (const [keyId, count] of await sealedBySecretKeyId(db, authenticatorSecrets)) {
    at(keyId).authenticatorSecrets = count;
  }
  for (const [keyId, count] of await sealedBySecretKeyId(db, webhookSecrets)) {
    at(keyId).webhookSecrets = count;
  }
  for (const [keyId, count] of await documentsBySecretKeyId(db)) {
    at(keyId).identityDocuments = count;
  }
  for (const [keyId, count] of await exportsBySecretKeyId(db)) {
    at(keyId).dataExports = count;
  }
  return use;
}

export function describeUse(use: KeyUse): string {
  const exports = use.dataExports > 0 ? `, ${use.dataExports} data exports` : '';
  return `${use.authenticatorSecrets} authenticator secrets, ${use.identityDocuments} identity documents, ${use.webhookSecrets} webhook secrets${exports}`;
}

/**
 * Refuses to go on (start-up, the rotation) when something stored needs a key the list no
 * longer holds: it would fail at the first sign-in or document viewing that needs it.
 */
export async function refuseMissingKeys(db: Queryable, keys: SecretKeys): Promise<void> {
  const missing = [...(await secretKeyUse(db))].filter(([keyId]) => !keys.byId.has(keyId));
  if (missing.length === 0) return;
  const lines = missing.map(
    ([keyId, use]) =>
      `key ${keyId} is not in the list, yet ${recordsOf(use)} records need it (${describeUse(use)}); put it back, run npm run rotate-keys, and remove it once none need it`,
  );
  throw new ConfigError(`Invalid configuration:\n  COFFER_SECRET_KEY: ${lines.join('\n  ')}`);
}

const firstId = '00000000-0000-0000-0000-000000000000';

/**
 * Re-encrypts the sealed secrets of up to `batchSize` rows after `afterId` that another
 * key than the current one encrypted, in one transaction holding their rows. Rows another
 * transaction holds (a sign-in using its code, a webhook's roll) are skipped, never waited
 * for, so the rotation cannot deadlock with the app; a later run takes them. A secret that
 * fails its integrity check is refused and left as it is.
 */
async function rotateSealedBatch(
  db: Database,
  keys: SecretKeys,
  { table, columns }: SealedColumns,
  afterId: string,
  batchSize: number,
): Promise<{ lastId: string | null; rotated: number; refusedIds: string[] }> {
  const stale = (column: string) => `(${column} IS NOT NULL AND ${sealedKeyIdSql(column)} <> $2)`;
  return db.transaction(async (tx) => {
    const batch = await tx.query<Record<string, string | null> & { id: string }>(
      `SELECT id, ${columns.join(', ')} FROM ${table}
        WHERE id > $1 AND (${columns.map(stale).join(' OR ')})
        ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED`,
      [afterId, keys.current.id, batchSize],
    );
    let rotated = 0;
    const refusedIds: string[] = [];
    for (const row of batch.rows) {
      for (const column of columns) {
        const sealed = row[column];
        if (sealed === null || sealed === undefined) continue;
        let plainText: string;
        try {
          plainText = decryptSecret(sealed, keys);
        } catch {
          refusedIds.push(row.id);
          continue;
        }
        const resealed = encryptSecret(plainText, keys);
        await tx.query(`UPDATE ${table} SET ${column} = $2 WHERE id = $1 AND ${column} = $3`, [
          row.id,
          resealed,
          sealed,
        ]);
        rotated += 1;
      }
    }
    return { lastId: batch.rows.at(-1)?.id ?? null, rotated, refusedIds };
  });
}

export type RotationReport = {
  /** The current key, which everything rotated is now encrypted with. */
  keyId: string;
  rotated: KeyUse;
  /** Records that failed their integrity check: changed at rest, left as they were. */
  refused: { userIds: string[]; documentIds: string[]; webhookEndpointIds: string[] };
  /** What older keys still encrypt once the run ends, by key id. */
  remaining: Record<string, KeyUse>;
  /** False when the run was stopped before it had been through everything. */
  isComplete: boolean;
};

export type RotationOptions = {
  batchSize: number;
  /** Aborted: the run stops after the batch in progress, and still records what it did. */
  signal?: AbortSignal;
  /** Called after every batch, with the totals so far. */
  onBatch?: (rotated: KeyUse) => void;
};

/**
 * Re-encrypts every authenticator secret and identity document under the current key, in
 * small batches, each its own transaction, while the app keeps serving. Work is chosen by
 * what is not yet under the current key, so a run that was stopped (or killed) is resumed
 * by running it again. Ends with one audit event holding the counts.
 */
export async function rotateSecretKeys(
  deps: { db: Database; secretKeys: SecretKeys; storage: DocumentStorage },
  options: RotationOptions,
): Promise<RotationReport> {
  const keys = deps.secretKeys;
  const rotated = noUse();
  const refused: RotationReport['refused'] = {
    userIds: [],
    documentIds: [],
    webhookEndpointIds: [],
  };
  const kinds = [
    {
      run: (afterId: string) =>
        rotateSealedBatch(deps.db, keys, authenticatorSecrets, afterId, options.batchSize),
      count: (done: number) => {
        rotated.authenticatorSecrets += done;
      },
      refusedIds: refused.userIds,
    },
    {
      run: (afterId: string) => rotateDocumentBatch(deps, afterId, options.batchSize),
      count: (done: number) => {
        rotated.identityDocuments += done;
      },
      refusedIds: refused.documentIds,
    },
    {
      run: (afterId: string) =>
        rotateSealedBatch(deps.db, keys, webhookSecrets, afterId, options.batchSize),
      count: (done: number) => {
        rotated.webhookSecrets += done;
      },
      refusedIds: refused.webhookEndpointIds,
    },
    {
      run: (afterId: string) =>
        expireExportBatch(deps.db, keys.current.id, afterId, options.batchSize),
      count: (done: number) => {
        rotated.dataExports += done;
      },
      // Ending an export checks nothing of its file: none is ever refused.
      refusedIds: [],
    },
  ];
  let isComplete = true;
  for (const kind of kinds) {
    let afterId: string | null = firstId;
    while (afterId !== null) {
      if (options.signal?.aborted) {
        isComplete = false;
        break;
      }
      const batch = await kind.run(afterId);
      kind.count(batch.rotated);
      kind.refusedIds.push(...batch.refusedIds);
      options.onBatch?.({ ...rotated });
      afterId = batch.lastId;
    }
  }
  const remaining = Object.fromEntries(
    [...(await secretKeyUse(deps.db))].filter(([keyId]) => keyId !== keys.current.id),
  );
  const report = { keyId: keys.current.id, rotated, refused, remaining, isComplete };
  await recordAudit(deps.db, {
    action: 'secret_keys_rotated',
    actorUserId: null,
    subjectUserId: null,
    after: report,
    reason: 'npm run rotate-keys',
  });
  return report;
}
