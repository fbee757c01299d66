import type { Readable } from 'node:stream';
import {
  type KycDocument,
  type KycOverview,
  type KycSubmission,
  type KycSubmissionBody,
  kycAlreadyDecidedMessage,
  kycAlreadyPendingMessage,
  kycApprovedLevel,
  type StaffKycSubmission,
} from '@coffer/contracts/kyc';
import type { Site } from '@coffer/contracts/site';
import type { Config } from '../../config.ts';
import { findUserById, setUserLevel } from '../../customers/queries.ts';
import type { Database, Queryable } from '../../db/client.ts';
import type { StaffAction } from '../../platform/access.ts';
import { AppError } from '../../platform/app-error.ts';
import { assert } from '../../platform/assert.ts';
import { recordAudit } from '../../platform/audit.ts';
import { publishEvent } from '../../platform/events.ts';
import { newId } from '../../platform/ids.ts';
import type { Mailer } from '../../platform/mail.ts';
import { notify } from '../../platform/notifications.ts';
import { kycApprovedNotification, kycRejectedNotification } from './emails.ts';
import {
  decidePending,
  findSubmission,
  hasPendingSubmission,
  insertDocument,
  insertSubmission,
  type KycSubmissionRow,
  lockLevelOf,
  lockUnattachedDocument,
  pendingSubmissions,
  setVerifiedLegalName,
  submissionsOfUser,
  toKycSubmission,
  toRejectedDetails,
  toStaffKycSubmission,
} from './queries.ts';
import type { DocumentStorage } from './storage.ts';
import { storeInspected } from './upload.ts';

export type KycDeps = {
  db: Database;
  config: Config;
  site: Site;
  mailer: Mailer;
  storage: DocumentStorage;
};

/** Staff lists show at most this many submissions; the queue is worked oldest first. */
const staffListLengthMax = 200;

/** PostgreSQL's unique_violation: here, a second pending submission made at the same time. */
function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '23505';
}

/**
 * Streams an upload to storage under a key the server picks, then records it. If the
 * record cannot be written, the file goes too: nothing is kept that no row knows.
 */
export async function uploadDocument(
  deps: KycDeps,
  userId: string,
  source: Readable,
): Promise<KycDocument> {
  const id = newId();
  const storageKey = newId();
  const inspected = await storeInspected(deps.storage, storageKey, source);
  try {
    await insertDocument(deps.db, { id, userId, storageKey, ...inspected });
  } catch (error) {
    await deps.storage.remove(storageKey);
    throw error;
  }
  return { id, mediaType: inspected.mediaType, sizeBytes: inspected.sizeBytes };
}

async function requireUser(db: Queryable, userId: string) {
  const user = await findUserById(db, userId);
  if (!user) throw new AppError('not_found');
  return user;
}

async function latestSubmission(db: Queryable, userId: string): Promise<KycSubmissionRow | null> {
  const [latest] = await submissionsOfUser(db, userId, 1);
  return latest ?? null;
}

export async function kycOverview(deps: KycDeps, userId: string): Promise<KycOverview> {
  const user = await requireUser(deps.db, userId);
  const latest = await latestSubmission(deps.db, userId);
  return {
    level: user.level,
    retentionDays: deps.config.kycRetentionDays,
    latest: latest ? toKycSubmission(latest) : null,
    // Only a rejected one is sent back: it is what the next submission starts from, and an
    // ID number is not repeated to a session that has no use for it.
    rejectedDetails: latest?.status === 'rejected' ? toRejectedDetails(latest) : null,
  };
}

/**
 * A customer's submission, with the document they uploaded. Another customer's document
 * is answered as missing (404); one pending submission at a time, also when two arrive
 * together (the unique index refuses the second).
 */
export async function submitKyc(
  deps: KycDeps,
  userId: string,
  body: KycSubmissionBody,
  ipAddress: string,
): Promise<KycSubmission> {
  const id = newId();
  try {
    await deps.db.transaction(async (tx) => {
      if (await hasPendingSubmission(tx, userId)) {
        throw new AppError('state_conflict', { message: kycAlreadyPendingMessage });
      }
      if (!(await lockUnattachedDocument(tx, body.documentId, userId))) {
        throw new AppError('not_found', { message: 'Upload your ID document again.' });
      }
      await insertSubmission(tx, { id, userId, ...body });
      await recordAudit(tx, {
        action: 'kyc_submitted',
        actorUserId: userId,
        subjectUserId: userId,
        after: { status: 'pending', idType: body.idType },
        ipAddress,
      });
      await publishEvent(tx, { userId, topics: ['kyc'] });
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw new AppError('state_conflict', { message: kycAlreadyPendingMessage });
  }
  const saved = await findSubmission(deps.db, id);
  assert(saved, 'a submission just inserted is found');
  return toKycSubmission(saved);
}

export async function kycQueue(deps: KycDeps): Promise<StaffKycSubmission[]> {
  return (await pendingSubmissions(deps.db, staffListLengthMax)).map(toStaffKycSubmission);
}

export async function staffKycOf(deps: KycDeps, userId: string): Promise<StaffKycSubmission[]> {
  await requireUser(deps.db, userId);
  return (await submissionsOfUser(deps.db, userId, staffListLengthMax)).map(toStaffKycSubmission);
}

/**
 * The document of a submission, for staff, checked whole before the viewing goes into the
 * audit log, and that before any byte goes out: if the record cannot be written, nobody
 * sees the document.
 */
export async function openDocument(
  deps: KycDeps,
  submissionId: string,
  action: StaffAction,
): Promise<{ submission: KycSubmissionRow; body: Readable }> {
  const found = await findSubmission(deps.db, submissionId);
  if (!found || found.is_document_deleted) throw new AppError('not_found');
  const { submission, body } = await readDocument(deps, found);
  try {
    await recordAudit(deps.db, {
      action: 'kyc_document_viewed',
      actorUserId: action.staff.userId,
      subjectUserId: submission.user_id,
      // The row's id, not the address's spelling of it (a UUID matches in any case).
      after: { submissionId: submission.id, sha256: submission.sha256 },
      ipAddress: action.ipAddress,
    });
  } catch (error) {
    body.destroy();
    throw error;
  }
  return { submission, body };
}

/** A file not there (moved by a key rotation, or removed by the clean-up). */
export function isMissingFile(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ENOENT';
}

/**
 * The submission's document. A key rotation that re-encrypted it since `submission` was
 * read has removed the file the row named then: the row is read again, once.
 */
export async function readDocument(
  deps: Pick<KycDeps, 'db' | 'storage'>,
  submission: KycSubmissionRow,
): Promise<{ submission: KycSubmissionRow; body: Readable }> {
  try {
    const body = await deps.storage.read(submission.storage_key, submission.secret_key_id);
    return { submission, body };
  } catch (error) {
    if (!isMissingFile(error)) throw error;
    const moved = await findSubmission(deps.db, submission.id);
    if (!moved || moved.is_document_deleted) throw new AppError('not_found');
    if (moved.storage_key === submission.storage_key) throw error;
    return {
      submission: moved,
      body: await deps.storage.read(moved.storage_key, moved.secret_key_id),
    };
  }
}

type Decision = { status: 'approved' } | { status: 'rejected'; reason: string };

/**
 * Staff decide a pending submission: approval raises the level to at least 2 (never
 * lowers it) and makes the submission's legal name the customer's. The decision, the audit entry, the customer's notification (and email) and their live update
 * commit together; of two staff deciding at once exactly one wins, the other is told.
 */
export async function decideKyc(
  deps: KycDeps,
  submissionId: string,
  decision: Decision,
  action: StaffAction,
): Promise<StaffKycSubmission> {
  const before = await findSubmission(deps.db, submissionId);
  if (!before) throw new AppError('not_found');
  if (before.user_id === action.staff.userId) throw new AppError('own_account');
  await deps.db.transaction(async (tx) => {
    const reason = decision.status === 'rejected' ? decision.reason : action.reason || null;
    const decided = await decidePending(tx, {
      submissionId,
      status: decision.status,
      reviewerUserId: action.staff.userId,
      reason,
    });
    if (!decided) throw new AppError('state_conflict', { message: kycAlreadyDecidedMessage });
    const levelBefore = await lockLevelOf(tx, decided.user_id);
    assert(levelBefore !== null, 'the submission’s customer exists');
    const levelAfter =
      decision.status === 'approved' ? Math.max(levelBefore, kycApprovedLevel) : levelBefore;
    if (levelAfter !== levelBefore) await setUserLevel(tx, decided.user_id, levelAfter);
    if (decision.status === 'approved') {
      await setVerifiedLegalName(tx, decided.user_id, decided.legal_name);
    }
    await recordAudit(tx, {
      action: decision.status === 'approved' ? 'kyc_approved' : 'kyc_rejected',
      actorUserId: action.staff.userId,
      subjectUserId: decided.user_id,
      before: { status: 'pending', level: levelBefore },
      after: {
        status: decision.status,
        level: levelAfter,
        ...(decision.status === 'approved' && decided.legal_name !== null
          ? { legalName: decided.legal_name }
          : {}),
      },
      reason,
      ipAddress: action.ipAddress,
    });
    const recipient = {
      userId: decided.user_id,
      username: before.username,
      institutionName: deps.site.institutionName,
    };
    await notify(
      tx,
      decision.status === 'approved'
        ? kycApprovedNotification({ ...recipient, level: levelAfter })
        : kycRejectedNotification({ ...recipient, reason: decision.reason }),
      deps.config,
    );
    await publishEvent(tx, { userId: decided.user_id, topics: ['kyc', 'customer'] });
  });
  deps.mailer.kick();
  const after = await findSubmission(deps.db, submissionId);
  assert(after, 'a decided submission is found');
  return toStaffKycSubmission(after);
}
