import { toCurrencyCode } from '@coffer/contracts/currencies';
import {
  type Loan,
  type LoanApplicationBody,
  type LoanOverview,
  loanLevelMin,
  loanMessages,
} from '@coffer/contracts/loans';
import { formatMoney, minorUnits } from '@coffer/contracts/money';
import { findUserById } from '../../customers/queries.ts';
import { findCustomerWallet } from '../../ledger/wallets.ts';
import type { StaffAction } from '../../platform/access.ts';
import { AppError } from '../../platform/app-error.ts';
import { recordAudit } from '../../platform/audit.ts';
import { publishEvent } from '../../platform/events.ts';
import { newId } from '../../platform/ids.ts';
import { notify } from '../../platform/notifications.ts';
import { applicantDetails } from './applicant-details.ts';
import { isApplicationWithinEligibility, refuseLoanAboveEligibility } from './eligibility.ts';
import {
  type AssessmentStateRow,
  assessmentState,
  type EligibilityRow,
  findEligibility,
  insertLoan,
  loansOfUser,
  lockEligibility,
  outstandingPrincipalOfUser,
  pendingLoans,
  recordDecision,
  saveEligibility,
  settleAssessmentRequest,
} from './queries.ts';
import {
  amountOrRefuse,
  customerOrRefuse,
  type LoanDeps,
  listLengthMax,
  loanById,
  lockCustomersEligibility,
  lockLoan,
  refuseAmount,
  termsFor,
  withSchedules,
} from './shared.ts';

function eligibilityOf(row: EligibilityRow | null): LoanOverview['eligibility'] {
  return row
    ? {
        amountMinor: minorUnits(row.amount_minor),
        reason: row.reason,
        setAt: row.set_at.toISOString(),
      }
    : null;
}

function assessmentOf(row: AssessmentStateRow | null) {
  return {
    assessmentRequestedAt: row && !row.settled_at ? row.requested_at.toISOString() : null,
    assessmentDeclinedReason: row?.settled_at ? row.declined_reason : null,
  };
}

/** The /loan page, and the staff's view of one customer's loans: the same facts. */
export async function loanOverview(deps: LoanDeps, userId: string): Promise<LoanOverview> {
  const user = await findUserById(deps.db, userId);
  const wallet = await findCustomerWallet(deps.db, userId);
  if (!user || !wallet) throw new AppError('not_found');
  const terms = termsFor(deps.config, wallet.currency);
  return {
    level: user.level,
    currency: wallet.currency,
    terms: terms && {
      currency: terms.currency,
      annualRateBp: terms.annualRateBp,
      amountMinMinor: minorUnits(terms.amountMinMinor),
      amountMaxMinor: minorUnits(terms.amountMaxMinor),
      monthsMax: terms.monthsMax,
    },
    eligibility: eligibilityOf(await findEligibility(deps.db, userId)),
    ...assessmentOf(await assessmentState(deps.db, userId)),
    applicantDetails: await applicantDetails(deps.db, userId),
    loanBalanceMinor: minorUnits(await outstandingPrincipalOfUser(deps.db, userId)),
    loans: await withSchedules(
      deps.db,
      await loansOfUser(deps.db, userId, listLengthMax),
      new Date(),
    ),
  };
}

/** PRODUCT.md "Loans": level 2, terms for the currency, within eligibility, one pending. */
export async function applyForLoan(
  deps: LoanDeps,
  userId: string,
  body: LoanApplicationBody,
): Promise<Loan> {
  const user = await findUserById(deps.db, userId);
  const wallet = await findCustomerWallet(deps.db, userId);
  if (!user || !wallet) throw new AppError('not_found');
  if (user.level < loanLevelMin) {
    throw new AppError('level_too_low', { message: loanMessages.restrictedBody });
  }
  const terms = termsFor(deps.config, wallet.currency);
  if (!terms) throw new AppError('loans_not_offered');
  const monthlySalaryMinor = amountOrRefuse(body.monthlySalary, wallet.currency, 'monthlySalary');
  const amountMinor = amountOrRefuse(body.amount, wallet.currency, 'amount');
  if (body.months > terms.monthsMax) {
    const message = `Choose at most ${terms.monthsMax} months`;
    throw new AppError('validation_failed', { message, fields: { months: message } });
  }
  const money = (minor: bigint) => formatMoney({ amountMinor: minor, currency: wallet.currency });
  if (amountMinor < terms.amountMinMinor || amountMinor > terms.amountMaxMinor) {
    refuseAmount(
      `Loans in ${wallet.currency} are from ${money(terms.amountMinMinor)} to ${money(terms.amountMaxMinor)}`,
    );
  }
  const loanId = newId();
  await deps.db.transaction(async (tx) => {
    // The eligibility caps what the customer borrows in all (eligibility.ts), checked
    // with the new row in place and under the lock approval also takes.
    const eligibility = await lockEligibility(tx, userId);
    if (!eligibility) refuseAmount(loanMessages.aboveEligibility);
    const isInserted = await insertLoan(tx, {
      id: loanId,
      userId,
      currency: wallet.currency,
      amountMinor,
      monthlySalaryMinor,
      months: body.months,
      annualRateBp: terms.annualRateBp,
      fullName: body.fullName,
      phone: body.phone,
      address: body.address,
    });
    if (!isInserted) throw new AppError('loan_pending_exists');
    if (!(await isApplicationWithinEligibility(tx, eligibility))) {
      refuseAmount(loanMessages.aboveEligibility);
    }
    await publishEvent(tx, { userId, topics: ['loans'] });
  });
  return loanById(deps.db, loanId);
}

/**
 * Staff set what a customer may borrow, with a reason the customer sees and, if they
 * write one, a note for staff only, which goes to the audit log and nowhere the customer
 * reads (issue #31: "Salary 3,500 net per month stated in support chat" reached the loan
 * page when it was the one reason).
 */
export async function setEligibility(
  deps: LoanDeps,
  userId: string,
  body: { amount: string; staffNote?: string | undefined },
  action: StaffAction,
): Promise<LoanOverview> {
  const { wallet } = await customerOrRefuse(deps, userId, action);
  // An eligibility the customer could never use would tell them "approved" beside "not
  // offered" (issue #31 item 5): refused, naming the currency, until the operator sets terms.
  if (!termsFor(deps.config, wallet.currency)) {
    throw new AppError('loans_not_offered', {
      message: `Loans are not offered in ${wallet.currency}: the operator has set no loan terms for it (COFFER_LOAN_TERMS).`,
    });
  }
  const amountMinor = amountOrRefuse(body.amount, wallet.currency, 'amount');
  const before = await findEligibility(deps.db, userId);
  await deps.db.transaction(async (tx) => {
    await saveEligibility(tx, {
      userId,
      amountMinor,
      currency: wallet.currency,
      reason: action.reason,
      setByUserId: action.staff.userId,
    });
    // The customer's assessment request, if they sent one, is answered by this.
    await settleAssessmentRequest(tx, userId, action.staff.userId);
    await recordAudit(tx, {
      action: 'loan_eligibility_set',
      actorUserId: action.staff.userId,
      subjectUserId: userId,
      before: before ? { amountMinor: before.amount_minor.toString() } : null,
      after: {
        amountMinor: amountMinor.toString(),
        currency: wallet.currency,
        ...(body.staffNote ? { staffNote: body.staffNote } : {}),
      },
      reason: action.reason,
      ipAddress: action.ipAddress,
    });
    await notify(
      tx,
      {
        userId,
        kind: 'loan_eligibility_set',
        text: `Your approved loan eligibility is now ${formatMoney({ amountMinor, currency: wallet.currency })}: ${action.reason}`,
        link: '/loan',
      },
      deps.config,
    );
    await publishEvent(tx, { userId, topics: ['loans'] });
  });
  return loanOverview(deps, userId);
}

/** Approve or decline a pending application; of two staff deciding at once, one wins. */
export async function decideLoan(
  deps: LoanDeps,
  loanId: string,
  decision: 'approve' | 'decline',
  action: StaffAction,
): Promise<Loan> {
  await deps.db.transaction(async (tx) => {
    const eligibility = decision === 'approve' ? await lockCustomersEligibility(tx, loanId) : null;
    const loan = await lockLoan(tx, loanId);
    if (loan.user_id === action.staff.userId) throw new AppError('own_account');
    if (loan.status !== 'pending') throw new AppError('already_decided');
    if (decision === 'approve') await refuseLoanAboveEligibility(tx, eligibility, loan);
    const status = decision === 'approve' ? 'approved' : 'declined';
    await recordDecision(tx, loanId, {
      status,
      reason: action.reason || null,
      decidedByUserId: action.staff.userId,
    });
    await recordAudit(tx, {
      action: decision === 'approve' ? 'loan_approved' : 'loan_declined',
      actorUserId: action.staff.userId,
      subjectUserId: loan.user_id,
      before: { status: 'pending' },
      after: { status, amountMinor: loan.amount_minor.toString(), currency: loan.currency },
      reason: action.reason || null,
      ipAddress: action.ipAddress,
    });
    const amount = formatMoney({
      amountMinor: loan.amount_minor,
      currency: toCurrencyCode(loan.currency),
    });
    await notify(
      tx,
      {
        userId: loan.user_id,
        kind: 'loan_decided',
        text:
          decision === 'approve'
            ? `Your loan request of ${amount} was approved. It will be paid into your wallet shortly.`
            : `Your loan request of ${amount} was declined: ${action.reason}`,
        link: '/loan',
      },
      deps.config,
    );
    await publishEvent(tx, { userId: loan.user_id, topics: ['loans'] });
  });
  return loanById(deps.db, loanId);
}

/** Oldest first: applications waiting for a decision. */
export async function loanQueue(deps: LoanDeps): Promise<Loan[]> {
  return withSchedules(deps.db, await pendingLoans(deps.db, listLengthMax), new Date());
}
