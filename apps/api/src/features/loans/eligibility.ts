import { toCurrencyCode } from '@coffer/contracts/currencies';
import { formatMoney } from '@coffer/contracts/money';
import type { Queryable } from '../../db/client.ts';
import { AppError } from '../../platform/app-error.ts';
import { committedPrincipalOfUser, type EligibilityRow, type LoanRow } from './queries.ts';

/**
 * PRODUCT.md "Loans": the eligibility caps what the customer borrows in all, not each loan.
 * It covers the pending application, approved loans not yet paid out and the principal
 * still owed on disbursed ones. Each check runs under the lock on the customer's
 * eligibility row (`lockEligibility`) that application, approval, disbursement and staff
 * setting the eligibility all take first, so no two of them check against the same state
 * and both write: an application sent while the last one is being approved waits for the
 * approval and then counts it.
 */

/**
 * The application, after its row was inserted in the caller's transaction: true when
 * every pending, approved and disbursed loan of the customer, the new one among them,
 * fits within `eligibility` (what `lockEligibility` returned in this transaction, before
 * the insert). The caller refuses, and so rolls the insert back, otherwise.
 */
export async function isApplicationWithinEligibility(
  tx: Queryable,
  eligibility: EligibilityRow,
): Promise<boolean> {
  const committedMinor = await committedPrincipalOfUser(tx, eligibility.user_id, {
    statuses: ['pending', 'approved', 'disbursed'],
  });
  return committedMinor <= eligibility.amount_minor;
}

/**
 * Approval and disbursement look again: staff may have lowered the eligibility since the
 * application. The loan's amount and what the customer owes or was approved for on other
 * loans must fit; another pending application does not count here, it is checked at its
 * own approval. `eligibility` is what `lockEligibility` returned in this transaction,
 * taken before the loan row was locked.
 */
export async function refuseLoanAboveEligibility(
  tx: Queryable,
  eligibility: EligibilityRow | null,
  loan: LoanRow,
): Promise<void> {
  const otherMinor = await committedPrincipalOfUser(tx, loan.user_id, {
    statuses: ['approved', 'disbursed'],
    exceptLoanId: loan.id,
  });
  if (eligibility && otherMinor + loan.amount_minor <= eligibility.amount_minor) return;
  const eligibilityText = eligibility
    ? `the approved loan eligibility of ${formatMoney({ amountMinor: eligibility.amount_minor, currency: toCurrencyCode(loan.currency) })}`
    : 'the approved loan eligibility, which is not set';
  throw new AppError('loan_above_eligibility', {
    message: `This loan would take the customer above ${eligibilityText}. Raise the eligibility first.`,
  });
}
