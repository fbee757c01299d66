import type { Queryable } from '../../db/client.ts';
import type { RowOf } from '../../db/rows.ts';
import type {
  auditEvents,
  bulkPayments,
  cardAuthorizations,
  cards,
  dataExports,
  disputes,
  loanInstalments,
  loanRepayments,
  loans,
  notifications,
  payees,
  scheduledPayments,
  sessions,
  supportMessages,
  users,
} from '../../db/schema.ts';
import { readerLanguageSql } from '../../platform/notifications.ts';

export type DataExportRow = RowOf<typeof dataExports>;

/**
 * Asks for an export: a new building row, unless one of this customer's is building
 * already. The unique partial index decides between two requests at once: the second
 * INSERT does nothing (it waited for the first to commit) and reads the first's row.
 */
export async function insertOrFindBuilding(
  db: Queryable,
  row: { id: string; userId: string; sectionsTotal: number },
): Promise<{ row: DataExportRow; isNew: boolean }> {
  const inserted = await db.query<DataExportRow>(
    `INSERT INTO data_exports (id, user_id, sections_total) VALUES ($1, $2, $3)
     ON CONFLICT (user_id) WHERE status = 'building' DO NOTHING
     RETURNING *`,
    [row.id, row.userId, row.sectionsTotal],
  );
  const created = inserted.rows[0];
  if (created) return { row: created, isNew: true };
  const building = await db.query<DataExportRow>(
    `SELECT * FROM data_exports WHERE user_id = $1 AND status = 'building'`,
    [row.userId],
  );
  const found = building.rows[0];
  // Gone between the two statements only if the build finished at that very moment.
  if (found) return { row: found, isNew: false };
  return insertOrFindBuilding(db, row);
}

export async function latestExportOf(db: Queryable, userId: string): Promise<DataExportRow | null> {
  const found = await db.query<DataExportRow>(
    `SELECT * FROM data_exports WHERE user_id = $1 ORDER BY requested_at DESC, id DESC LIMIT 1`,
    [userId],
  );
  return found.rows[0] ?? null;
}

/** The customer's own export; another's is not found, as if it did not exist. */
export async function findOwnExport(
  db: Queryable,
  exportId: string,
  userId: string,
): Promise<DataExportRow | null> {
  const found = await db.query<DataExportRow>(
    'SELECT * FROM data_exports WHERE id = $1 AND user_id = $2',
    [exportId, userId],
  );
  return found.rows[0] ?? null;
}

/**
 * Claims the oldest building export no other run holds: its lease moves ahead and its
 * attempts count up, so a build cut short by a crash is taken again after the lease, and
 * one that keeps failing is given up (`failStaleBuilds`). The previous attempt's partial
 * file, if any, is returned for removal.
 */
export async function claimBuild(
  db: Queryable,
  claim: { now: Date; leaseMs: number; attemptsMax: number; storageKey: string },
): Promise<{ row: DataExportRow; previousStorageKey: string | null } | null> {
  const found = await db.query<DataExportRow & { previous_storage_key: string | null }>(
    `WITH next AS (
       SELECT id, storage_key FROM data_exports
        WHERE status = 'building' AND build_attempts < $4
          AND (build_lease_until IS NULL OR build_lease_until <= $1)
        ORDER BY requested_at LIMIT 1 FOR UPDATE SKIP LOCKED)
     UPDATE data_exports e
        SET build_lease_until = $1::timestamptz + make_interval(secs => $2::bigint / 1000.0),
            build_attempts = e.build_attempts + 1, sections_done = 0, storage_key = $3
       FROM next WHERE e.id = next.id
     RETURNING e.*, next.storage_key AS previous_storage_key`,
    [claim.now, claim.leaseMs, claim.storageKey, claim.attemptsMax],
  );
  const row = found.rows[0];
  if (!row) return null;
  const { previous_storage_key: previousStorageKey, ...exportRow } = row;
  return { row: exportRow, previousStorageKey };
}

/** Builds that used up their attempts: failed, with the key of any partial file. */
export async function failExhaustedBuilds(
  db: Queryable,
  attemptsMax: number,
  now: Date,
): Promise<DataExportRow[]> {
  const failed = await db.query<DataExportRow>(
    `UPDATE data_exports SET status = 'failed', build_lease_until = NULL
      WHERE status = 'building' AND build_attempts >= $1 AND build_lease_until <= $2
      RETURNING *`,
    [attemptsMax, now],
  );
  return failed.rows;
}

/** A failed try: the next waits until `retryAt` (unless another run took the build over). */
export async function postponeBuild(
  db: Queryable,
  build: { exportId: string; storageKey: string; retryAt: Date },
): Promise<void> {
  await db.query(
    `UPDATE data_exports SET build_lease_until = $3
      WHERE id = $1 AND storage_key = $2 AND status = 'building'`,
    [build.exportId, build.storageKey, build.retryAt],
  );
}

export async function recordProgress(
  db: Queryable,
  exportId: string,
  sectionsDone: number,
): Promise<void> {
  await db.query(
    `UPDATE data_exports SET sections_done = $2 WHERE id = $1 AND status = 'building'`,
    [exportId, sectionsDone],
  );
}

/** The zip is on disk: ready until `expiresAt`. Null when the row is no longer building. */
export async function markReady(
  db: Queryable,
  ready: {
    exportId: string;
    storageKey: string;
    secretKeyId: string;
    sha256: string;
    sizeBytes: bigint;
    now: Date;
    expiresAt: Date;
  },
): Promise<DataExportRow | null> {
  const found = await db.query<DataExportRow>(
    `UPDATE data_exports
        SET status = 'ready', storage_key = $2, secret_key_id = $3, sha256 = $4, size_bytes = $5,
            ready_at = $6, expires_at = $7, sections_done = sections_total, build_lease_until = NULL
      WHERE id = $1 AND status = 'building' AND storage_key = $2
      RETURNING *`,
    [
      ready.exportId,
      ready.storageKey,
      ready.secretKeyId,
      ready.sha256,
      ready.sizeBytes,
      ready.now,
      ready.expiresAt,
    ],
  );
  return found.rows[0] ?? null;
}

/** Ready exports whose seven days are over, marked expired: their files are to be removed. */
export async function expireReadyExports(
  db: Queryable,
  now: Date,
  limit: number,
): Promise<{ id: string; storage_key: string | null }[]> {
  const expired = await db.query<{ id: string; storage_key: string | null }>(
    `UPDATE data_exports SET status = 'expired', download_session_id = NULL,
            download_allowed_until = NULL
      WHERE id IN (SELECT id FROM data_exports WHERE status = 'ready' AND expires_at <= $1
                    ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED)
      RETURNING id, storage_key`,
    [now, limit],
  );
  return expired.rows;
}

/** After the password: this session may download the export until `allowedUntil`. */
export async function allowDownload(
  db: Queryable,
  allowance: { exportId: string; userId: string; sessionId: string; allowedUntil: Date },
): Promise<DataExportRow | null> {
  const found = await db.query<DataExportRow>(
    `UPDATE data_exports SET download_session_id = $3, download_allowed_until = $4
      WHERE id = $1 AND user_id = $2 AND status = 'ready'
      RETURNING *`,
    [allowance.exportId, allowance.userId, allowance.sessionId, allowance.allowedUntil],
  );
  return found.rows[0] ?? null;
}

// What the zip holds, read a page at a time in key order ("keyset" pages): a customer with
// years of notifications or sign-ins never has them all in memory at once.

export type PageRequest = { userId: string; afterId: string | null; limit: number };

export type ProfileRow = Pick<
  RowOf<typeof users>,
  | 'id'
  | 'username'
  | 'email'
  | 'email_verified_at'
  | 'phone'
  | 'country'
  | 'legal_name'
  | 'time_zone'
  | 'level'
  | 'role'
  | 'wants_notification_emails'
  | 'frozen_at'
  | 'frozen_reason'
  | 'terms_version'
  | 'terms_accepted_at'
  | 'created_at'
>;

export async function findProfile(db: Queryable, userId: string): Promise<ProfileRow | null> {
  const found = await db.query<ProfileRow>(
    `SELECT id, username, email, email_verified_at, phone, country, legal_name, time_zone, level,
            role, wants_notification_emails, frozen_at, frozen_reason, terms_version,
            terms_accepted_at, created_at
       FROM users WHERE id = $1`,
    [userId],
  );
  return found.rows[0] ?? null;
}

export type WalletRow = {
  id: string;
  number: string;
  currency: string;
  balance_minor: bigint;
  held_minor: bigint;
  created_at: Date;
};

/** The customer's wallets with their balances (one today; the export does not assume it). */
export async function walletsOf(db: Queryable, userId: string): Promise<WalletRow[]> {
  const found = await db.query<WalletRow>(
    `SELECT a.id, a.number, a.currency, a.created_at,
            coalesce(sum(b.balance_minor), 0)::bigint AS balance_minor,
            coalesce(sum(b.held_minor), 0)::bigint AS held_minor
       FROM accounts a LEFT JOIN account_balances b ON b.account_id = a.id
      WHERE a.owner_user_id = $1 AND a.kind = 'customer'
      GROUP BY a.id ORDER BY a.created_at, a.id`,
    [userId],
  );
  return found.rows;
}

export type MonthRow = {
  month: string;
  line_count: number;
  money_in_minor: bigint;
  money_out_minor: bigint;
};

/** Each month of a wallet with lines, in the customer's zone: the statements there are. */
export async function statementMonths(
  db: Queryable,
  account: { accountId: string; timeZone: string },
): Promise<MonthRow[]> {
  const found = await db.query<MonthRow>(
    `SELECT to_char(posted_at AT TIME ZONE $2, 'YYYY-MM') AS month, count(*)::int AS line_count,
            coalesce(sum(amount_minor) FILTER (WHERE amount_minor > 0), 0)::bigint AS money_in_minor,
            coalesce(-sum(amount_minor) FILTER (WHERE amount_minor < 0), 0)::bigint AS money_out_minor
       FROM journal_lines WHERE account_id = $1
      GROUP BY 1 ORDER BY 1`,
    [account.accountId, account.timeZone],
  );
  return found.rows;
}

/** One keyset page of rows owned by the user, ordered by `id`; each query names its columns. */
function pageOf<Row extends Record<string, unknown>>(sql: string) {
  return async (db: Queryable, page: PageRequest): Promise<Row[]> => {
    const found = await db.query<Row>(sql, [page.userId, page.afterId, page.limit]);
    return found.rows;
  };
}

export type LoanRow = Pick<
  RowOf<typeof loans>,
  | 'id'
  | 'currency'
  | 'amount_minor'
  | 'monthly_salary_minor'
  | 'months'
  | 'annual_rate_bp'
  | 'full_name'
  | 'phone'
  | 'address'
  | 'status'
  | 'decision_reason'
  | 'decided_at'
  | 'disbursed_on'
  | 'instalment_minor'
  | 'outstanding_principal_minor'
  | 'is_auto_repay_on'
  | 'created_at'
>;

export const loansPage = pageOf<LoanRow>(
  `SELECT id, currency, amount_minor, monthly_salary_minor, months, annual_rate_bp, full_name,
          phone, address, status, decision_reason, decided_at, disbursed_on::text AS disbursed_on,
          instalment_minor, outstanding_principal_minor, is_auto_repay_on, created_at
     FROM loans WHERE user_id = $1 AND ($2::uuid IS NULL OR id > $2) ORDER BY id LIMIT $3`,
);

export type InstalmentRow = Pick<
  RowOf<typeof loanInstalments>,
  | 'number'
  | 'due_on'
  | 'principal_minor'
  | 'interest_minor'
  | 'principal_paid_minor'
  | 'interest_paid_minor'
>;

/** A loan's schedule: at most 60 instalments (loans run up to 60 months). */
export async function instalmentsOf(db: Queryable, loanId: string): Promise<InstalmentRow[]> {
  const found = await db.query<InstalmentRow>(
    `SELECT number, due_on::text AS due_on, principal_minor, interest_minor,
            principal_paid_minor, interest_paid_minor
       FROM loan_instalments WHERE loan_id = $1 ORDER BY number`,
    [loanId],
  );
  return found.rows;
}

export type RepaymentRow = Pick<
  RowOf<typeof loanRepayments>,
  'id' | 'amount_minor' | 'principal_minor' | 'interest_minor' | 'is_automatic' | 'created_at'
>;

export async function repaymentsPage(
  db: Queryable,
  page: { loanId: string; afterId: string | null; limit: number },
): Promise<RepaymentRow[]> {
  const found = await db.query<RepaymentRow>(
    `SELECT id, amount_minor, principal_minor, interest_minor, is_automatic, created_at
       FROM loan_repayments WHERE loan_id = $1 AND ($2::uuid IS NULL OR id > $2)
      ORDER BY id LIMIT $3`,
    [page.loanId, page.afterId, page.limit],
  );
  return found.rows;
}

/** Cards as the customer sees them: never the number or the security code (the issuer's). */
export type CardRow = Pick<
  RowOf<typeof cards>,
  | 'id'
  | 'status'
  | 'last_four'
  | 'expiry_month'
  | 'expiry_year'
  | 'holder_name'
  | 'currency'
  | 'fee_minor'
  | 'weekly_limit_minor'
  | 'reason'
  | 'frozen_at'
  | 'created_at'
>;

export const cardsPage = pageOf<CardRow>(
  `SELECT id, status, last_four, expiry_month, expiry_year, holder_name, currency,
          fee_minor, weekly_limit_minor, reason, frozen_at, created_at
     FROM cards WHERE user_id = $1 AND ($2::uuid IS NULL OR id > $2) ORDER BY id LIMIT $3`,
);

export type CardPurchaseRow = Pick<
  RowOf<typeof cardAuthorizations>,
  | 'id'
  | 'card_id'
  | 'amount_minor'
  | 'currency'
  | 'merchant'
  | 'status'
  | 'decline_reason'
  | 'created_at'
>;

export const cardPurchasesPage = pageOf<CardPurchaseRow>(
  `SELECT id, card_id, amount_minor, currency, merchant, status, decline_reason,
          created_at
     FROM card_authorizations WHERE user_id = $1 AND ($2::uuid IS NULL OR id > $2)
    ORDER BY id LIMIT $3`,
);

export type DisputeRow = Pick<
  RowOf<typeof disputes>,
  | 'id'
  | 'reference'
  | 'amount_minor'
  | 'currency'
  | 'recipient_account_number'
  | 'problem_type'
  | 'description'
  | 'status'
  | 'resolution_note'
  | 'created_at'
  | 'updated_at'
>;

export const disputesPage = pageOf<DisputeRow>(
  `SELECT id, reference, amount_minor, currency, recipient_account_number,
          problem_type, description, status, resolution_note,
          created_at, updated_at
     FROM disputes WHERE user_id = $1 AND ($2::uuid IS NULL OR id > $2) ORDER BY id LIMIT $3`,
);

export type SupportMessageRow = Pick<
  RowOf<typeof supportMessages>,
  'id' | 'is_from_staff' | 'body' | 'created_at'
>;

export const supportMessagesPage = pageOf<SupportMessageRow>(
  `SELECT id, is_from_staff, body, created_at
     FROM support_messages WHERE thread_user_id = $1 AND ($2::uuid IS NULL OR id > $2)
    ORDER BY id LIMIT $3`,
);

export type PayeeRow = Pick<
  RowOf<typeof payees>,
  'id' | 'nickname' | 'kind' | 'target' | 'created_at'
>;

export const payeesPage = pageOf<PayeeRow>(
  `SELECT id, nickname, kind, target, created_at
     FROM payees WHERE user_id = $1 AND ($2::uuid IS NULL OR id > $2) ORDER BY id LIMIT $3`,
);

export type ScheduledPaymentRow = RowOf<typeof scheduledPayments>;

export const scheduledPaymentsPage = pageOf<ScheduledPaymentRow>(
  `SELECT * FROM scheduled_payments
    WHERE user_id = $1 AND ($2::uuid IS NULL OR id > $2) ORDER BY id LIMIT $3`,
);

export type BulkPaymentRow = RowOf<typeof bulkPayments>;

export const bulkPaymentsPage = pageOf<BulkPaymentRow>(
  `SELECT * FROM bulk_payments
    WHERE user_id = $1 AND ($2::uuid IS NULL OR id > $2) ORDER BY id LIMIT $3`,
);

export type NotificationRow = Pick<
  RowOf<typeof notifications>,
  'id' | 'kind' | 'text' | 'link' | 'read_at' | 'created_at' | 'is_english_source'
> & { reader_language: string | null };

export const notificationsPage = pageOf<NotificationRow>(
  `SELECT id, kind, text, link, read_at, created_at, is_english_source, ${readerLanguageSql('$1')}
     FROM notifications WHERE user_id = $1 AND ($2::uuid IS NULL OR id > $2) ORDER BY id LIMIT $3`,
);

export type SessionRow = Pick<
  RowOf<typeof sessions>,
  'id' | 'user_agent' | 'ip_address' | 'created_at' | 'last_used_at' | 'expires_at' | 'revoked_at'
>;

export const sessionsPage = pageOf<SessionRow>(
  `SELECT id, user_agent, ip_address, created_at, last_used_at, expires_at, revoked_at
     FROM sessions WHERE user_id = $1 AND ($2::uuid IS NULL OR id > $2) ORDER BY id LIMIT $3`,
);

export type AccountEventRow = Pick<
  RowOf<typeof auditEvents>,
  'id' | 'action' | 'ip_address' | 'after' | 'created_at'
>;

/** Sign-ins, failed ones and lock-outs of the account, from the audit log. */
export const signInEventsPage = pageOf<AccountEventRow>(
  `SELECT id, action, ip_address, after, created_at
     FROM audit_events
    WHERE subject_user_id = $1 AND action IN ('login_succeeded', 'login_failed', 'login_locked')
      AND ($2::uuid IS NULL OR id > $2)
    ORDER BY id LIMIT $3`,
);

/** Each acceptance of the terms and privacy notice, from the audit log. */
export const termsAcceptancesPage = pageOf<AccountEventRow>(
  `SELECT id, action, ip_address, after, created_at
     FROM audit_events
    WHERE subject_user_id = $1 AND action = 'terms_accepted' AND ($2::uuid IS NULL OR id > $2)
    ORDER BY id LIMIT $3`,
);

export type IdentityDocumentRow = {
  id: string;
  storage_key: string;
  secret_key_id: string;
  media_type: string;
  size_bytes: number;
  sha256: string;
  uploaded_at: Date;
  submission_id: string | null;
  id_type: string | null;
  id_number: string | null;
  address: string | null;
  date_of_birth: string | null;
  status: string | null;
  reason: string | null;
  submitted_at: Date | null;
  decided_at: Date | null;
};

/** The identity documents still kept (not deleted after their retention), with submissions. */
export const identityDocumentsPage = pageOf<IdentityDocumentRow>(
  `SELECT d.id, d.storage_key, d.secret_key_id, d.media_type, d.size_bytes, d.sha256,
          d.created_at AS uploaded_at, s.id AS submission_id, s.id_type::text AS id_type,
          s.id_number, s.address, s.date_of_birth::text AS date_of_birth, s.status,
          s.reason, s.created_at AS submitted_at, s.decided_at
     FROM kyc_documents d LEFT JOIN kyc_submissions s ON s.document_id = d.id
    WHERE d.user_id = $1 AND d.deleted_at IS NULL AND ($2::uuid IS NULL OR d.id > $2)
    ORDER BY d.id LIMIT $3`,
);
