import type { CurrencyCode } from '@coffer/contracts/currencies';
import type { Config } from '../config.ts';
import type { Queryable } from '../db/client.ts';
import type { StaffAction } from '../platform/access.ts';
import { AppError } from '../platform/app-error.ts';
import { addToDailyTotal, adminNames, approvedStaffGrants, type StaffName } from './queries.ts';

/** What the rules need to know of a staff posting waiting for approval. */
export type PendingApproval = {
  /** The staff member who prepared it (the maker). */
  makerUserId: string;
  /** The customer whose money it moves. */
  subjectUserId: string;
};

export type ApprovalDecision = 'approve' | 'reject' | 'cancel';

/**
 * Who may approve whose postings: every admin except the maker, the subject, any admin
 * whose promotion the maker requested or approved, and any admin who made the maker staff
 * (support or admin): each pair of eyes must be independent of the other. Read once,
 * applied to each pending posting.
 */
export async function approversOf(db: Queryable) {
  // One after the other: inside a transaction both share one connection.
  const admins = await adminNames(db);
  const grants = await approvedStaffGrants(db);
  const isPromotedBy = (personId: string, promoterId: string) =>
    grants.some(
      (grant) =>
        grant.user_id === personId &&
        (grant.requested_by_user_id === promoterId || grant.decided_by_user_id === promoterId),
    );
  return (pending: PendingApproval): StaffName[] =>
    admins.filter(
      (admin) =>
        admin.id !== pending.makerUserId &&
        admin.id !== pending.subjectUserId &&
        !isPromotedBy(admin.id, pending.makerUserId) &&
        !isPromotedBy(pending.makerUserId, admin.id),
    );
}
export type Approvers = Awaited<ReturnType<typeof approversOf>>;

/**
 * Spends `amountMinor` of the maker's daily total for posting without approval, in one
 * conditional upsert: the row stays locked until the transaction ends, so a concurrent
 * posting waits and then sees this one. False when the total would be exceeded.
 */
async function spendDailyTotal(
  tx: Queryable,
  makerUserId: string,
  currency: string,
  amountMinor: bigint,
  dailyTotalMinor: bigint,
): Promise<boolean> {
  if (amountMinor > dailyTotalMinor) return false;
  return addToDailyTotal(tx, { makerUserId, currency, amountMinor, dailyTotalMinor });
}

/**
 * Starts a staff posting (deposits, adjustments, dispute refunds, loan disbursements):
 * approval by a second admin is needed when the caller's own rule requires it
 * (`isRequired`: a dispute refund above what was disputed), for anything support prepares,
 * anything above the currency's approval threshold, any currency without limits (it has
 * no threshold), and what would take the admin past her daily total. Otherwise the amount
 * is spent from that total here and the posting goes through at once; a required approval
 * spends none of it.
 */
export async function isApprovalNeeded(
  deps: { config: Pick<Config, 'limits'> },
  tx: Queryable,
  staff: StaffAction['staff'],
  currency: CurrencyCode,
  amountMinor: bigint,
  options: { isRequired?: boolean } = {},
): Promise<boolean> {
  const limits = deps.config.limits.limitsFor(currency);
  return (
    options.isRequired === true ||
    staff.role !== 'admin' ||
    !limits ||
    amountMinor > limits.fourEyesThresholdMinor ||
    !(await spendDailyTotal(
      tx,
      staff.userId,
      currency,
      amountMinor,
      limits.fourEyesDailyTotalMinor,
    ))
  );
}

/**
 * Who may decide a pending posting: only its maker may cancel it; an admin who may
 * approve it (`approversOf`), never its maker, approves or rejects it.
 */
export async function refuseUnlessMayDecide(
  tx: Queryable,
  pending: PendingApproval,
  decision: ApprovalDecision,
  staffUserId: string,
): Promise<void> {
  if (decision === 'cancel') {
    if (pending.makerUserId !== staffUserId) throw new AppError('not_maker');
    return;
  }
  if (pending.makerUserId === staffUserId) throw new AppError('own_request');
  const approvers = await approversOf(tx);
  if (!approvers(pending).some((admin) => admin.id === staffUserId)) {
    throw new AppError('not_eligible_checker');
  }
}
