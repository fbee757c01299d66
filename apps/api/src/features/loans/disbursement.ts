import { toCurrencyCode } from '@coffer/contracts/currencies';
import { addMonths, annuitySchedule, utcDate } from '@coffer/contracts/loan-schedule';
import { formatRateBp, type Loan } from '@coffer/contracts/loans';
import { formatMoney } from '@coffer/contracts/money';
import type { ApprovalCallbacks, Approvals } from '../../approvals/approvals.ts';
import { isApprovalNeeded } from '../../approvals/rules.ts';
import type { Queryable } from '../../db/client.ts';
import type { AccountId } from '../../ledger/ledger.ts';
import { findCustomerWallet } from '../../ledger/wallets.ts';
import type { StaffAction } from '../../platform/access.ts';
import { AppError } from '../../platform/app-error.ts';
import { recordAudit } from '../../platform/audit.ts';
import { publishEvent } from '../../platform/events.ts';
import { notify } from '../../platform/notifications.ts';
import { refuseLoanAboveEligibility } from './eligibility.ts';
import {
  approvedLoans,
  findLoan,
  type LoanRow,
  recordDisbursement,
  recordDisbursementRequest,
  replaceInstalmentsFrom,
} from './queries.ts';
import {
  customerOrRefuse,
  type LoanDeps,
  listLengthMax,
  loanById,
  lockCustomersEligibility,
  lockLoan,
  withSchedules,
} from './shared.ts';

/**
 * "Disburse loan": only an approved loan. Under the approval rules of staff postings
 * (approvals/: `isApprovalNeeded`, who may approve) it pays out at once or waits for a
 * second admin, who then disburses it. Paying out fixes the schedule.
 */
export type DisbursementTarget = { loanId: string; receivableId: AccountId };

/** Looks up what a disbursement needs before its transaction opens. */
export async function disbursementTarget(
  deps: LoanDeps,
  loanId: string,
  action: StaffAction,
): Promise<DisbursementTarget> {
  const found = await findLoan(deps.db, loanId);
  if (!found) throw new AppError('not_found');
  await customerOrRefuse(deps, found.user_id, action);
  const currency = toCurrencyCode(found.currency);
  return { loanId, receivableId: await deps.ledger.systemAccount('loan_receivable', currency) };
}

export async function disburseLoan(
  deps: LoanDeps & { approvals: Approvals },
  tx: Queryable,
  target: DisbursementTarget,
  action: StaffAction,
  now = new Date(),
): Promise<Loan> {
  const { loanId, receivableId } = target;
  const eligibility = await lockCustomersEligibility(tx, loanId);
  const loan = await lockLoan(tx, loanId);
  const currency = toCurrencyCode(loan.currency);
  if (loan.status !== 'approved') {
    throw new AppError('loan_state', { message: 'Only an approved loan can be disbursed.' });
  }
  // Both the first admin's request and the second admin's payout look again.
  await refuseLoanAboveEligibility(tx, eligibility, loan);
  const requestedBy = loan.disbursement_requested_by_user_id;
  if (requestedBy === null) {
    const needsSecondAdmin = await isApprovalNeeded(
      deps,
      tx,
      action.staff,
      currency,
      loan.amount_minor,
    );
    if (needsSecondAdmin) {
      await recordDisbursementRequest(tx, loanId, action.staff.userId);
      await recordLoanAudit(tx, loan, 'loan_disbursement_requested', action);
      await publishEvent(tx, { userId: loan.user_id, topics: ['loans'] });
      return loanById(tx, loanId, now);
    }
    await payOut(deps, tx, loan, receivableId, action, now);
  } else {
    // The second admin: approvals/ checks she may approve, then calls `payOut` back.
    await deps.approvals.decide('loan_disbursement', tx, {
      id: loanId,
      decision: 'approve',
      action,
      context: { receivableId, now },
    });
  }
  return loanById(tx, loanId, now);
}

/** A disbursement waiting for approval is decided through approvals/, which calls back here. */
export function disbursementApprovals(deps: LoanDeps): ApprovalCallbacks<'loan_disbursement'> {
  return {
    lockPending: async (tx, loanId) => {
      const loan = await lockLoan(tx, loanId);
      const requestedBy = loan.disbursement_requested_by_user_id;
      if (loan.status !== 'approved' || requestedBy === null) throw new AppError('already_decided');
      return { makerUserId: requestedBy, subjectUserId: loan.user_id };
    },
    onDecided: async (tx, { id, action, context }) => {
      const loan = await lockLoan(tx, id);
      await payOut(deps, tx, loan, context.receivableId, action, context.now);
    },
  };
}

async function recordLoanAudit(
  tx: Queryable,
  loan: LoanRow,
  auditAction: 'loan_disbursement_requested' | 'loan_disbursed',
  action: StaffAction,
) {
  await recordAudit(tx, {
    action: auditAction,
    actorUserId: action.staff.userId,
    subjectUserId: loan.user_id,
    after: { loanId: loan.id, amountMinor: loan.amount_minor.toString(), currency: loan.currency },
    reason: action.reason || null,
    ipAddress: action.ipAddress,
  });
}

async function payOut(
  deps: LoanDeps,
  tx: Queryable,
  loan: LoanRow,
  receivableId: AccountId,
  action: StaffAction,
  now: Date,
) {
  const wallet = await findCustomerWallet(tx, loan.user_id);
  if (!wallet) throw new AppError('not_found');
  const { entryId } = await deps.ledger.post(
    {
      kind: 'loan_disbursement',
      memo: `Loan disbursement (${loan.months} months at ${formatRateBp(loan.annual_rate_bp)})`,
      actorUserId: action.staff.userId,
      lines: [
        { accountId: receivableId, amountMinor: -loan.amount_minor },
        { accountId: wallet.id, amountMinor: loan.amount_minor },
      ],
    },
    tx,
  );
  const disbursedOn = utcDate(now);
  const schedule = annuitySchedule(loan.amount_minor, loan.annual_rate_bp, loan.months);
  await replaceInstalmentsFrom(
    tx,
    loan.id,
    1,
    schedule.lines.map((line) => ({
      ...line,
      dueOn: addMonths(disbursedOn, line.number),
      principalPaidMinor: 0n,
      interestPaidMinor: 0n,
    })),
  );
  await recordDisbursement(tx, {
    loanId: loan.id,
    disbursedByUserId: action.staff.userId,
    disbursedOn,
    entryId,
    instalmentMinor: schedule.instalmentMinor,
    principalMinor: loan.amount_minor,
  });
  await recordLoanAudit(tx, loan, 'loan_disbursed', action);
  await notify(
    tx,
    {
      userId: loan.user_id,
      kind: 'loan_disbursed',
      text: `Your loan of ${formatMoney({ amountMinor: loan.amount_minor, currency: wallet.currency })} was paid into your wallet.`,
      link: '/loan',
    },
    deps.config,
  );
  await publishEvent(tx, { userId: loan.user_id, topics: ['wallet', 'loans'] });
}

/**
 * The loans queue's "to disburse" list: approved loans not yet paid out, the longest
 * waiting first, each with whoever asked a second admin to pay it out.
 */
export async function toDisburseQueue(deps: LoanDeps): Promise<Loan[]> {
  return withSchedules(deps.db, await approvedLoans(deps.db, listLengthMax), new Date());
}
