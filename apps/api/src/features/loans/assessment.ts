import {
  type AssessmentRequest,
  type LoanOverview,
  loanLevelMin,
  loanMessages,
} from '@coffer/contracts/loans';
import { minorUnits } from '@coffer/contracts/money';
import { findUserById } from '../../customers/queries.ts';
import { findCustomerWallet } from '../../ledger/wallets.ts';
import type { StaffAction } from '../../platform/access.ts';
import { AppError } from '../../platform/app-error.ts';
import { recordAudit } from '../../platform/audit.ts';
import { publishEvent } from '../../platform/events.ts';
import { notify } from '../../platform/notifications.ts';
import { loanOverview } from './application.ts';
import {
  openAssessmentRequest,
  openAssessmentRequests,
  settleAssessmentRequest,
} from './queries.ts';
import { customerOrRefuse, type LoanDeps, listLengthMax, termsFor } from './shared.ts';

/**
 * "Ask for an assessment" on the loan page (issue #31 item 2): the request waits in the
 * loans queue until staff set the eligibility, which notifies the customer. Asking again
 * while a request is open changes nothing; asking once an eligibility is set asks for it
 * to be looked at again.
 */
export async function requestAssessment(deps: LoanDeps, userId: string): Promise<LoanOverview> {
  const user = await findUserById(deps.db, userId);
  const wallet = await findCustomerWallet(deps.db, userId);
  if (!user || !wallet) throw new AppError('not_found');
  if (user.level < loanLevelMin) {
    throw new AppError('level_too_low', { message: loanMessages.restrictedBody });
  }
  if (!termsFor(deps.config, wallet.currency)) throw new AppError('loans_not_offered');
  await deps.db.transaction(async (tx) => {
    if (!(await openAssessmentRequest(tx, userId))) return;
    await recordAudit(tx, {
      action: 'loan_assessment_requested',
      actorUserId: userId,
      subjectUserId: userId,
      after: { currency: wallet.currency },
    });
    await publishEvent(tx, { userId, topics: ['loans'] });
  });
  return loanOverview(deps, userId);
}

/** The loans queue's customers waiting for an eligibility, the longest waiting first. */
export async function assessmentQueue(deps: LoanDeps): Promise<AssessmentRequest[]> {
  const rows = await openAssessmentRequests(deps.db, listLengthMax);
  return rows.map((row) => ({
    userId: row.user_id,
    username: row.username,
    currency: row.currency,
    requestedAt: row.requested_at.toISOString(),
    eligibility:
      row.eligibility_minor === null || row.eligibility_set_at === null
        ? null
        : {
            amountMinor: minorUnits(row.eligibility_minor),
            setAt: row.eligibility_set_at.toISOString(),
          },
  }));
}

/**
 * Staff answer an assessment request with no eligibility: the customer is told why in the
 * bell and on the loan page (never left waiting without a reason), and may ask again.
 */
export async function declineAssessment(
  deps: LoanDeps,
  userId: string,
  action: StaffAction,
): Promise<LoanOverview> {
  await customerOrRefuse(deps, userId, action);
  await deps.db.transaction(async (tx) => {
    if (!(await settleAssessmentRequest(tx, userId, action.staff.userId, action.reason))) {
      throw new AppError('already_decided');
    }
    await recordAudit(tx, {
      action: 'loan_assessment_declined',
      actorUserId: action.staff.userId,
      subjectUserId: userId,
      reason: action.reason,
      ipAddress: action.ipAddress,
    });
    await notify(
      tx,
      {
        userId,
        kind: 'loan_assessment_declined',
        text: `We cannot offer you a loan at the moment: ${action.reason}`,
        link: '/loan',
      },
      deps.config,
    );
    await publishEvent(tx, { userId, topics: ['loans'] });
  });
  return loanOverview(deps, userId);
}
