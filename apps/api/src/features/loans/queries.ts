import type { LoanStatus } from '@coffer/contracts/loans';
import type { Queryable } from '../../db/client.ts';
import type { RowOf } from '../../db/rows.ts';
import type { loanEligibilities, loanInstalments, loanRepayments } from '../../db/schema.ts';

export type EligibilityRow = RowOf<typeof loanEligibilities>;
export type InstalmentRow = RowOf<typeof loanInstalments>;
export type RepaymentRow = RowOf<typeof loanRepayments>;

export type LoanRow = {
  id: string;
  user_id: string;
  username: string;
  currency: string;
  amount_minor: bigint;
  monthly_salary_minor: bigint;
  months: number;
  annual_rate_bp: number;
  full_name: string;
  phone: string;
  address: string;
  status: LoanStatus;
  decision_reason: string | null;
  decided_at: Date | null;
  created_at: Date;
  disbursement_requested_by_user_id: string | null;
  disbursement_requested_by_username: string | null;
  disbursed_on: string | null;
  disbursed_at: Date | null;
  instalment_minor: bigint | null;
  outstanding_principal_minor: bigint;
  is_auto_repay_on: boolean;
  short_notice_on: string | null;
};

const loanColumns = `l.id, l.user_id, u.username, l.currency, l.amount_minor, l.monthly_salary_minor,
  l.months, l.annual_rate_bp, l.full_name, l.phone, l.address, l.status, l.decision_reason,
  l.decided_at, l.created_at, l.disbursement_requested_by_user_id,
  r.username AS disbursement_requested_by_username, l.disbursed_on::text AS disbursed_on,
  l.disbursed_at, l.instalment_minor, l.outstanding_principal_minor, l.is_auto_repay_on,
  l.short_notice_on::text AS short_notice_on`;
const loanFrom = `loans l JOIN users u ON u.id = l.user_id
  LEFT JOIN users r ON r.id = l.disbursement_requested_by_user_id`;

export async function findEligibility(
  db: Queryable,
  userId: string,
): Promise<EligibilityRow | null> {
  const found = await db.query<EligibilityRow>(
    'SELECT * FROM loan_eligibilities WHERE user_id = $1',
    [userId],
  );
  return found.rows[0] ?? null;
}

export async function saveEligibility(
  tx: Queryable,
  eligibility: {
    userId: string;
    amountMinor: bigint;
    currency: string;
    reason: string;
    setByUserId: string;
  },
): Promise<void> {
  await tx.query(
    `INSERT INTO loan_eligibilities (user_id, amount_minor, currency, reason, set_by_user_id)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (user_id) DO UPDATE SET amount_minor = EXCLUDED.amount_minor,
       currency = EXCLUDED.currency, reason = EXCLUDED.reason,
       set_by_user_id = EXCLUDED.set_by_user_id, set_at = now()`,
    [
      eligibility.userId,
      eligibility.amountMinor,
      eligibility.currency,
      eligibility.reason,
      eligibility.setByUserId,
    ],
  );
}

/** Inserts an application; false when the customer already has one pending (the index). */
export async function insertLoan(
  tx: Queryable,
  loan: {
    id: string;
    userId: string;
    currency: string;
    amountMinor: bigint;
    monthlySalaryMinor: bigint;
    months: number;
    annualRateBp: number;
    fullName: string;
    phone: string;
    address: string;
  },
): Promise<boolean> {
  const inserted = await tx.query(
    `INSERT INTO loans (id, user_id, currency, amount_minor, monthly_salary_minor, months,
                        annual_rate_bp, full_name, phone, address)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (user_id) WHERE status = 'pending' DO NOTHING RETURNING id`,
    [
      loan.id,
      loan.userId,
      loan.currency,
      loan.amountMinor,
      loan.monthlySalaryMinor,
      loan.months,
      loan.annualRateBp,
      loan.fullName,
      loan.phone,
      loan.address,
    ],
  );
  return inserted.rows.length > 0;
}

export async function findLoan(
  db: Queryable,
  loanId: string,
  options: { isLocked?: boolean } = {},
): Promise<LoanRow | null> {
  const found = await db.query<LoanRow>(
    `SELECT ${loanColumns} FROM ${loanFrom} WHERE l.id = $1
     ${options.isLocked ? 'FOR UPDATE OF l' : ''}`,
    [loanId],
  );
  return found.rows[0] ?? null;
}

/** A customer's loans, newest first. */
export async function loansOfUser(
  db: Queryable,
  userId: string,
  limit: number,
): Promise<LoanRow[]> {
  const found = await db.query<LoanRow>(
    `SELECT ${loanColumns} FROM ${loanFrom} WHERE l.user_id = $1
      ORDER BY l.created_at DESC, l.id DESC LIMIT $2`,
    [userId, limit],
  );
  return found.rows;
}

/** Applications waiting for a decision, oldest first. */
export async function pendingLoans(db: Queryable, limit: number): Promise<LoanRow[]> {
  const found = await db.query<LoanRow>(
    `SELECT ${loanColumns} FROM ${loanFrom} WHERE l.status = 'pending'
      ORDER BY l.created_at, l.id LIMIT $1`,
    [limit],
  );
  return found.rows;
}

export async function instalmentsOf(db: Queryable, loanIds: string[]): Promise<InstalmentRow[]> {
  if (loanIds.length === 0) return [];
  const found = await db.query<InstalmentRow>(
    `SELECT loan_id, number, due_on::text AS due_on, principal_minor, interest_minor,
            principal_paid_minor, interest_paid_minor
       FROM loan_instalments WHERE loan_id = ANY($1::uuid[]) ORDER BY loan_id, number`,
    [loanIds],
  );
  return found.rows;
}

export async function repaymentsOf(db: Queryable, loanIds: string[]): Promise<RepaymentRow[]> {
  if (loanIds.length === 0) return [];
  const found = await db.query<RepaymentRow>(
    `SELECT * FROM loan_repayments WHERE loan_id = ANY($1::uuid[]) ORDER BY created_at, id`,
    [loanIds],
  );
  return found.rows;
}

export async function recordDecision(
  tx: Queryable,
  loanId: string,
  decision: { status: 'approved' | 'declined'; reason: string | null; decidedByUserId: string },
): Promise<void> {
  await tx.query(
    `UPDATE loans SET status = $2, decision_reason = $3, decided_by_user_id = $4, decided_at = now()
      WHERE id = $1`,
    [loanId, decision.status, decision.reason, decision.decidedByUserId],
  );
}

export async function recordDisbursementRequest(
  tx: Queryable,
  loanId: string,
  requestedByUserId: string,
): Promise<void> {
  await tx.query('UPDATE loans SET disbursement_requested_by_user_id = $2 WHERE id = $1', [
    loanId,
    requestedByUserId,
  ]);
}

export async function recordDisbursement(
  tx: Queryable,
  disbursement: {
    loanId: string;
    disbursedByUserId: string;
    disbursedOn: string;
    entryId: string;
    instalmentMinor: bigint;
    principalMinor: bigint;
  },
): Promise<void> {
  await tx.query(
    `UPDATE loans SET status = 'disbursed', disbursed_by_user_id = $2, disbursed_on = $3,
            disbursed_at = now(), disbursement_entry_id = $4, instalment_minor = $5,
            outstanding_principal_minor = $6
      WHERE id = $1`,
    [
      disbursement.loanId,
      disbursement.disbursedByUserId,
      disbursement.disbursedOn,
      disbursement.entryId,
      disbursement.instalmentMinor,
      disbursement.principalMinor,
    ],
  );
}

export type InstalmentWrite = {
  number: number;
  dueOn: string;
  principalMinor: bigint;
  interestMinor: bigint;
  principalPaidMinor: bigint;
  interestPaidMinor: bigint;
};

/** Writes the instalments from `fromNumber` on, replacing what was there (the rest are dropped). */
export async function replaceInstalmentsFrom(
  tx: Queryable,
  loanId: string,
  fromNumber: number,
  instalments: InstalmentWrite[],
): Promise<void> {
  await tx.query('DELETE FROM loan_instalments WHERE loan_id = $1 AND number >= $2', [
    loanId,
    fromNumber,
  ]);
  if (instalments.length === 0) return;
  await tx.query(
    `INSERT INTO loan_instalments (loan_id, number, due_on, principal_minor, interest_minor,
                                   principal_paid_minor, interest_paid_minor)
     SELECT $1, * FROM unnest($2::smallint[], $3::date[], $4::bigint[], $5::bigint[],
                              $6::bigint[], $7::bigint[])`,
    [
      loanId,
      instalments.map((line) => line.number),
      instalments.map((line) => line.dueOn),
      instalments.map((line) => line.principalMinor.toString()),
      instalments.map((line) => line.interestMinor.toString()),
      instalments.map((line) => line.principalPaidMinor.toString()),
      instalments.map((line) => line.interestPaidMinor.toString()),
    ],
  );
}

export async function recordRepayment(
  tx: Queryable,
  repayment: {
    id: string;
    loanId: string;
    entryId: string;
    principalMinor: bigint;
    interestMinor: bigint;
    isAutomatic: boolean;
    outstandingPrincipalMinor: bigint;
    isRepaid: boolean;
  },
): Promise<void> {
  await tx.query(
    `INSERT INTO loan_repayments (id, loan_id, entry_id, amount_minor, principal_minor,
                                  interest_minor, is_automatic)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      repayment.id,
      repayment.loanId,
      repayment.entryId,
      repayment.principalMinor + repayment.interestMinor,
      repayment.principalMinor,
      repayment.interestMinor,
      repayment.isAutomatic,
    ],
  );
  await tx.query(
    `UPDATE loans SET outstanding_principal_minor = $2,
            status = CASE WHEN $3::boolean THEN 'repaid' ELSE status END
      WHERE id = $1`,
    [repayment.loanId, repayment.outstandingPrincipalMinor, repayment.isRepaid],
  );
}

export async function setAutoRepay(
  tx: Queryable,
  loanId: string,
  isAutoRepayOn: boolean,
): Promise<void> {
  await tx.query('UPDATE loans SET is_auto_repay_on = $2 WHERE id = $1', [loanId, isAutoRepayOn]);
}

export async function recordShortNotice(tx: Queryable, loanId: string, day: string): Promise<void> {
  await tx.query('UPDATE loans SET short_notice_on = $2 WHERE id = $1', [loanId, day]);
}

/** Disbursed loans with automatic repayment on and an unpaid instalment due by `day`. */
export async function loansToCollect(db: Queryable, day: string, limit: number): Promise<string[]> {
  const found = await db.query<{ id: string }>(
    `SELECT DISTINCT l.id FROM loans l JOIN loan_instalments i ON i.loan_id = l.id
      WHERE l.status = 'disbursed' AND l.is_auto_repay_on AND i.due_on <= $1::date
        AND (i.principal_paid_minor < i.principal_minor OR i.interest_paid_minor < i.interest_minor)
      LIMIT $2`,
    [day, limit],
  );
  return found.rows.map((row) => row.id);
}

/** Principal still owed on a customer's loans, for the Loan Balance. */
export async function outstandingPrincipalOfUser(db: Queryable, userId: string): Promise<bigint> {
  const found = await db.query<{ total: bigint }>(
    `SELECT coalesce(sum(outstanding_principal_minor), 0)::bigint AS total
       FROM loans WHERE user_id = $1 AND status = 'disbursed'`,
    [userId],
  );
  return found.rows[0]?.total ?? 0n;
}

/**
 * Locks the customer's eligibility row until the transaction ends: application, approval,
 * disbursement and staff setting the eligibility all take it, so each checks what the
 * eligibility covers and writes without another changing it in between.
 */
export async function lockEligibility(
  tx: Queryable,
  userId: string,
): Promise<EligibilityRow | null> {
  const found = await tx.query<EligibilityRow>(
    'SELECT * FROM loan_eligibilities WHERE user_id = $1 FOR UPDATE',
    [userId],
  );
  return found.rows[0] ?? null;
}

/**
 * What counts against the customer's eligibility among loans in `statuses`, leaving out
 * `exceptLoanId`: the principal still owed on a disbursed loan, the amount of any other.
 */
export async function committedPrincipalOfUser(
  db: Queryable,
  userId: string,
  counted: { statuses: readonly ('pending' | 'approved' | 'disbursed')[]; exceptLoanId?: string },
): Promise<bigint> {
  const found = await db.query<{ total: bigint }>(
    `SELECT coalesce(sum(CASE WHEN status = 'disbursed' THEN outstanding_principal_minor
                              ELSE amount_minor END), 0)::bigint AS total
       FROM loans
      WHERE user_id = $1 AND status = ANY($2::text[]) AND id IS DISTINCT FROM $3::uuid`,
    [userId, counted.statuses, counted.exceptLoanId ?? null],
  );
  return found.rows[0]?.total ?? 0n;
}

/** Every disbursed loan's outstanding principal per currency, for the ledger check. */
export async function outstandingPrincipalByCurrency(
  db: Queryable,
): Promise<{ currency: string; total: bigint }[]> {
  const found = await db.query<{ currency: string; total: bigint }>(
    `SELECT currency, sum(outstanding_principal_minor)::bigint AS total FROM loans
      GROUP BY currency`,
  );
  return found.rows;
}

/** Approved loans not yet paid out: the loans queue's "to disburse" list, oldest first. */
export async function approvedLoans(db: Queryable, limit: number): Promise<LoanRow[]> {
  const found = await db.query<LoanRow>(
    `SELECT ${loanColumns} FROM ${loanFrom} WHERE l.status = 'approved'
      ORDER BY l.decided_at, l.id LIMIT $1`,
    [limit],
  );
  return found.rows;
}

/**
 * Opens the customer's assessment request; true when this call opened it, false when one
 * was open already. Of two sent at once the primary key lets one write: the other waits
 * for it, then finds the row open and changes nothing.
 */
export async function openAssessmentRequest(tx: Queryable, userId: string): Promise<boolean> {
  const opened = await tx.query(
    `INSERT INTO loan_assessment_requests AS r (user_id) VALUES ($1)
     ON CONFLICT (user_id) DO UPDATE SET requested_at = now(), settled_at = NULL,
       settled_by_user_id = NULL, declined_reason = NULL
      WHERE r.settled_at IS NOT NULL
     RETURNING user_id`,
    [userId],
  );
  return opened.rows.length > 0;
}

export type AssessmentStateRow = {
  requested_at: Date;
  settled_at: Date | null;
  declined_reason: string | null;
};

/** The customer's latest assessment request, open or settled; null when they never asked. */
export async function assessmentState(
  db: Queryable,
  userId: string,
): Promise<AssessmentStateRow | null> {
  const found = await db.query<AssessmentStateRow>(
    'SELECT requested_at, settled_at, declined_reason FROM loan_assessment_requests WHERE user_id = $1',
    [userId],
  );
  return found.rows[0] ?? null;
}

/**
 * Settles the customer's open request, if they sent one: setting the eligibility answers
 * it, or staff decline it with a reason. True when a request was open.
 */
export async function settleAssessmentRequest(
  tx: Queryable,
  userId: string,
  settledByUserId: string,
  declinedReason: string | null = null,
): Promise<boolean> {
  const settled = await tx.query(
    `UPDATE loan_assessment_requests SET settled_at = now(), settled_by_user_id = $2,
            declined_reason = $3
      WHERE user_id = $1 AND settled_at IS NULL RETURNING user_id`,
    [userId, settledByUserId, declinedReason],
  );
  return settled.rows.length > 0;
}

export type AssessmentRequestRow = {
  user_id: string;
  username: string;
  currency: string;
  requested_at: Date;
  eligibility_minor: bigint | null;
  eligibility_set_at: Date | null;
};

/** Open assessment requests, the longest waiting first. */
export async function openAssessmentRequests(
  db: Queryable,
  limit: number,
): Promise<AssessmentRequestRow[]> {
  const found = await db.query<AssessmentRequestRow>(
    `SELECT r.user_id, u.username, a.currency, r.requested_at,
            e.amount_minor AS eligibility_minor, e.set_at AS eligibility_set_at
       FROM loan_assessment_requests r
       JOIN users u ON u.id = r.user_id
       JOIN accounts a ON a.owner_user_id = r.user_id AND a.kind = 'customer' AND a.is_main
       LEFT JOIN loan_eligibilities e ON e.user_id = r.user_id
      WHERE r.settled_at IS NULL
      ORDER BY r.requested_at, r.user_id LIMIT $1`,
    [limit],
  );
  return found.rows;
}

export type ApplicantDetailsRow = {
  profile_phone: string | null;
  /** Set when a verification is approved (issue #31 item 7). */
  verified_legal_name: string | null;
  submitted_legal_name: string | null;
  verified_address: string | null;
  last_full_name: string | null;
  last_phone: string | null;
  last_address: string | null;
};

/**
 * What the customer already told us that an application asks: the profile's phone, the
 * address of their latest verification that was not rejected, and their last
 * application's details (in one statement, one snapshot).
 */
export async function applicantDetailsOf(
  db: Queryable,
  userId: string,
): Promise<ApplicantDetailsRow | null> {
  const found = await db.query<ApplicantDetailsRow>(
    `SELECT u.phone AS profile_phone, u.legal_name AS verified_legal_name,
            kyc.legal_name AS submitted_legal_name, kyc.address AS verified_address,
            last.full_name AS last_full_name, last.phone AS last_phone,
            last.address AS last_address
       FROM users u
       LEFT JOIN LATERAL (SELECT k.legal_name, k.address FROM kyc_submissions k
                           WHERE k.user_id = u.id AND k.status <> 'rejected'
                           ORDER BY k.created_at DESC LIMIT 1) kyc ON true
       LEFT JOIN LATERAL (SELECT l.full_name, l.phone, l.address FROM loans l
                           WHERE l.user_id = u.id ORDER BY l.created_at DESC, l.id DESC
                           LIMIT 1) last ON true
      WHERE u.id = $1`,
    [userId],
  );
  return found.rows[0] ?? null;
}
