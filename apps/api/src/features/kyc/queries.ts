import type {
  KycDocumentMediaType,
  KycIdType,
  KycRejectedDetails,
  KycStatus,
  KycSubmission,
  StaffKycSubmission,
} from '@coffer/contracts/kyc';
import type { Queryable } from '../../db/client.ts';
import type { RowOf } from '../../db/rows.ts';
import type { kycDocuments, kycSubmissions, users } from '../../db/schema.ts';

/**
 * A submission joined with its owner, its reviewer's name and its document (not the
 * document's id); `media_type` is one of the contract's, checked on upload.
 */
export type KycSubmissionRow = Omit<RowOf<typeof kycSubmissions>, 'document_id'> &
  Pick<RowOf<typeof users>, 'username' | 'email'> &
  Pick<RowOf<typeof kycDocuments>, 'storage_key' | 'secret_key_id' | 'size_bytes' | 'sha256'> & {
    media_type: KycDocumentMediaType;
    reviewer_username: string | null;
    is_document_deleted: boolean;
  };

const submissionColumns = `s.id, s.user_id, u.username, u.email, s.legal_name, s.id_type, s.id_number, s.address,
       to_char(s.date_of_birth, 'YYYY-MM-DD') AS date_of_birth, s.status, s.reason,
       s.reviewer_user_id, r.username AS reviewer_username, s.decided_at, s.created_at,
       d.storage_key, d.secret_key_id, d.media_type, d.size_bytes, d.sha256, d.deleted_at IS NOT NULL AS is_document_deleted`;
const submissionJoins = `FROM kyc_submissions s
  JOIN users u ON u.id = s.user_id
  JOIN kyc_documents d ON d.id = s.document_id
  LEFT JOIN users r ON r.id = s.reviewer_user_id`;

export async function insertDocument(
  tx: Queryable,
  document: {
    id: string;
    userId: string;
    storageKey: string;
    secretKeyId: string;
    mediaType: KycDocumentMediaType;
    sizeBytes: number;
    sha256: string;
  },
): Promise<void> {
  await tx.query(
    `INSERT INTO kyc_documents (id, user_id, storage_key, secret_key_id, media_type, size_bytes, sha256)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      document.id,
      document.userId,
      document.storageKey,
      document.secretKeyId,
      document.mediaType,
      document.sizeBytes,
      document.sha256,
    ],
  );
}

/** The customer's own stored document that no submission uses yet, locked. */
export async function lockUnattachedDocument(
  tx: Queryable,
  documentId: string,
  userId: string,
): Promise<boolean> {
  const found = await tx.query(
    `SELECT d.id FROM kyc_documents d
      WHERE d.id = $1 AND d.user_id = $2 AND d.deleted_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM kyc_submissions s WHERE s.document_id = d.id)
      FOR UPDATE`,
    [documentId, userId],
  );
  return found.rows.length === 1;
}

export async function hasPendingSubmission(tx: Queryable, userId: string): Promise<boolean> {
  const found = await tx.query(
    "SELECT 1 FROM kyc_submissions WHERE user_id = $1 AND status = 'pending'",
    [userId],
  );
  return found.rows.length > 0;
}

export async function insertSubmission(
  tx: Queryable,
  submission: {
    id: string;
    userId: string;
    legalName: string;
    idType: KycIdType;
    idNumber: string;
    address: string;
    dateOfBirth: string;
    documentId: string;
  },
): Promise<void> {
  await tx.query(
    `INSERT INTO kyc_submissions (id, user_id, legal_name, id_type, id_number, address,
                                  date_of_birth, document_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      submission.id,
      submission.userId,
      submission.legalName,
      submission.idType,
      submission.idNumber,
      submission.address,
      submission.dateOfBirth,
      submission.documentId,
    ],
  );
}

export async function findSubmission(
  db: Queryable,
  submissionId: string,
): Promise<KycSubmissionRow | null> {
  const found = await db.query<KycSubmissionRow>(
    `SELECT ${submissionColumns} ${submissionJoins} WHERE s.id = $1`,
    [submissionId],
  );
  return found.rows[0] ?? null;
}

export async function submissionsOfUser(
  db: Queryable,
  userId: string,
  rowsMax: number,
): Promise<KycSubmissionRow[]> {
  const found = await db.query<KycSubmissionRow>(
    `SELECT ${submissionColumns} ${submissionJoins}
      WHERE s.user_id = $1 ORDER BY s.created_at DESC, s.id DESC LIMIT $2`,
    [userId, rowsMax],
  );
  return found.rows;
}

/** The queue: pending submissions, oldest first. */
export async function pendingSubmissions(
  db: Queryable,
  rowsMax: number,
): Promise<KycSubmissionRow[]> {
  const found = await db.query<KycSubmissionRow>(
    `SELECT ${submissionColumns} ${submissionJoins}
      WHERE s.status = 'pending' ORDER BY s.created_at, s.id LIMIT $1`,
    [rowsMax],
  );
  return found.rows;
}

/**
 * Decides a pending submission. Of two staff deciding at once, the second finds it no
 * longer pending (the row lock makes it wait for the first), and gets no row back.
 */
export async function decidePending(
  tx: Queryable,
  decision: {
    submissionId: string;
    status: KycStatus;
    reviewerUserId: string;
    reason: string | null;
  },
): Promise<{ user_id: string; legal_name: string | null } | null> {
  const decided = await tx.query<{ user_id: string; legal_name: string | null }>(
    `UPDATE kyc_submissions SET status = $2, reviewer_user_id = $3, reason = $4, decided_at = now()
      WHERE id = $1 AND status = 'pending' RETURNING user_id, legal_name`,
    [decision.submissionId, decision.status, decision.reviewerUserId, decision.reason],
  );
  return decided.rows[0] ?? null;
}

/**
 * Records the legal name an approved verification showed. An approval of a submission made
 * before the form asked for one (null) keeps the name an earlier approval recorded.
 */
export async function setVerifiedLegalName(
  tx: Queryable,
  userId: string,
  legalName: string | null,
): Promise<void> {
  if (legalName === null) return;
  await tx.query('UPDATE users SET legal_name = $2 WHERE id = $1', [userId, legalName]);
}

/** Documents uploaded before `before` that no submission uses: abandoned uploads. */
export async function unattachedDocuments(db: Queryable, before: Date): Promise<{ id: string }[]> {
  const found = await db.query<{ id: string }>(
    `SELECT d.id FROM kyc_documents d
      WHERE d.deleted_at IS NULL AND d.created_at < $1
        AND NOT EXISTS (SELECT 1 FROM kyc_submissions s WHERE s.document_id = d.id)`,
    [before],
  );
  return found.rows;
}

/**
 * Documents past retention: of submissions rejected, or superseded by a later approved
 * one, before `decidedBefore`. Approved documents in use are kept while the account exists.
 */
export async function expiredDocuments(
  db: Queryable,
  decidedBefore: Date,
): Promise<{ id: string; user_id: string; submission_id: string }[]> {
  const found = await db.query<{ id: string; user_id: string; submission_id: string }>(
    `SELECT d.id, s.user_id, s.id AS submission_id
       FROM kyc_submissions s JOIN kyc_documents d ON d.id = s.document_id
      WHERE d.deleted_at IS NULL AND (
        (s.status = 'rejected' AND s.decided_at < $1)
        OR (s.status = 'approved' AND EXISTS (
          SELECT 1 FROM kyc_submissions later
           WHERE later.user_id = s.user_id AND later.status = 'approved'
             AND later.created_at > s.created_at AND later.decided_at < $1)))`,
    [decidedBefore],
  );
  return found.rows;
}

/**
 * Marks a document's file removed; the file to remove (a key rotation may have moved it
 * since it was listed), or null if another clean-up got there first.
 */
export async function markDocumentDeleted(
  tx: Queryable,
  documentId: string,
): Promise<string | null> {
  const marked = await tx.query<{ storage_key: string }>(
    'UPDATE kyc_documents SET deleted_at = now() WHERE id = $1 AND deleted_at IS NULL RETURNING storage_key',
    [documentId],
  );
  return marked.rows[0]?.storage_key ?? null;
}

/**
 * Marks an abandoned upload's file removed, unless a submission uses it by now; the file to
 * remove, or null if a submission uses it or another clean-up got there first. The first statement waits for a submission taking
 * the document at this moment (it holds the row); the second, with a snapshot taken after
 * that wait, then sees it.
 */
export async function markUnattachedDocumentDeleted(
  tx: Queryable,
  documentId: string,
): Promise<string | null> {
  await tx.query('SELECT 1 FROM kyc_documents WHERE id = $1 FOR UPDATE', [documentId]);
  const marked = await tx.query<{ storage_key: string }>(
    `UPDATE kyc_documents d SET deleted_at = now()
      WHERE d.id = $1 AND d.deleted_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM kyc_submissions s WHERE s.document_id = d.id)
      RETURNING d.storage_key`,
    [documentId],
  );
  return marked.rows[0]?.storage_key ?? null;
}

/** Storage keys the database knows, of those given: the rest are files nobody recorded. */
export async function knownStorageKeys(db: Queryable, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const found = await db.query<{ storage_key: string }>(
    'SELECT storage_key FROM kyc_documents WHERE storage_key = ANY($1::text[]) AND deleted_at IS NULL',
    [keys],
  );
  return new Set(found.rows.map((row) => row.storage_key));
}

export function toKycSubmission(row: KycSubmissionRow): KycSubmission {
  return {
    id: row.id,
    idType: row.id_type,
    status: row.status,
    reason: row.reason,
    createdAt: row.created_at.toISOString(),
    decidedAt: row.decided_at?.toISOString() ?? null,
  };
}

/** What the customer typed, to start again from after a rejection. */
export function toRejectedDetails(row: KycSubmissionRow): KycRejectedDetails {
  return {
    legalName: row.legal_name,
    idType: row.id_type,
    idNumber: row.id_number,
    address: row.address,
    dateOfBirth: row.date_of_birth,
  };
}

export function toStaffKycSubmission(row: KycSubmissionRow): StaffKycSubmission {
  return {
    ...toKycSubmission(row),
    user: { id: row.user_id, username: row.username, email: row.email },
    legalName: row.legal_name,
    idNumber: row.id_number,
    address: row.address,
    dateOfBirth: row.date_of_birth,
    document: {
      mediaType: row.media_type,
      sizeBytes: row.size_bytes,
      sha256: row.sha256,
      isAvailable: !row.is_document_deleted,
    },
    reviewer:
      row.reviewer_user_id && row.reviewer_username
        ? { id: row.reviewer_user_id, username: row.reviewer_username }
        : null,
  };
}

/** The customer's level, their row locked so a decision and a staff level change queue up. */
export async function lockLevelOf(tx: Queryable, userId: string): Promise<number | null> {
  const locked = await tx.query<{ level: number }>(
    'SELECT level FROM users WHERE id = $1 FOR UPDATE',
    [userId],
  );
  return locked.rows[0]?.level ?? null;
}
