import type { Database } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { ScheduledJob } from '../../platform/jobs.ts';
import {
  expiredDocuments,
  knownStorageKeys,
  markDocumentDeleted,
  markUnattachedDocumentDeleted,
  unattachedDocuments,
} from './queries.ts';
import type { DocumentStorage } from './storage.ts';

/** An upload no submission used within this long is abandoned. */
export const unattachedUploadLifetimeMs = 60 * 60 * 1000;
const sweepIntervalMs = 10 * 60 * 1000;
const dayMs = 24 * 60 * 60 * 1000;

type CleanupDeps = { db: Database; storage: DocumentStorage; retentionDays: number };

/**
 * Removes what Coffer no longer needs to keep: uploads never attached to a submission
 * after an hour, files no row records (a crash between writing and recording), and the
 * documents of rejected or superseded submissions after the retention period, each of
 * those with an audit entry. The row is marked first and the file removed after, so a
 * crash in between leaves a file no row records, which the next sweep removes.
 */
export async function sweepKycDocuments(deps: CleanupDeps, now = new Date()): Promise<void> {
  const abandonedBefore = new Date(now.getTime() - unattachedUploadLifetimeMs);
  for (const document of await unattachedDocuments(deps.db, abandonedBefore)) {
    // A customer may submit it at this very moment: the mark checks again, in order.
    const markedFile = await deps.db.transaction((tx) =>
      markUnattachedDocumentDeleted(tx, document.id),
    );
    if (markedFile !== null) await deps.storage.remove(markedFile);
  }
  const retainedFrom = new Date(now.getTime() - deps.retentionDays * dayMs);
  for (const document of await expiredDocuments(deps.db, retainedFrom)) {
    const markedFile = await deps.db.transaction(async (tx) => {
      const file = await markDocumentDeleted(tx, document.id);
      if (file === null) return null;
      await recordAudit(tx, {
        action: 'kyc_document_deleted',
        actorUserId: null,
        subjectUserId: document.user_id,
        after: { submissionId: document.submission_id, retentionDays: deps.retentionDays },
        reason: `Retention period of ${deps.retentionDays} days ended`,
      });
      return file;
    });
    if (markedFile !== null) await deps.storage.remove(markedFile);
  }
  const stored = await deps.storage.keysWrittenBefore(abandonedBefore);
  const known = await knownStorageKeys(deps.db, stored);
  for (const key of stored) {
    if (!known.has(key)) await deps.storage.remove(key);
  }
}

/** The sweep as a scheduled job (platform/jobs.ts): every ten minutes, on one instance. */
export function kycCleanupJob(deps: CleanupDeps): ScheduledJob {
  return {
    name: 'kyc-document-cleanup',
    intervalMs: sweepIntervalMs,
    run: (now) => sweepKycDocuments(deps, now),
  };
}
