import type { StaffAccountClosure } from '@coffer/contracts/account-reopenings';
import type { ApprovalCallbacks, Approvals } from '../../approvals/approvals.ts';
import type { ApprovalDecision } from '../../approvals/rules.ts';
import { refuseOwnAccount, requireCustomer } from '../../customers/customers.ts';
import type { Database, Queryable } from '../../db/client.ts';
import type { StaffAction } from '../../platform/access.ts';
import { AppError } from '../../platform/app-error.ts';
import { recordAudit } from '../../platform/audit.ts';
import { newId } from '../../platform/ids.ts';
import {
  insertReopening,
  lockReopening,
  lockUser,
  markReopened,
  type PendingReopeningRow,
  pendingReopeningOf,
  recordReopeningDecision,
} from './queries.ts';

export type ReopeningDeps = { db: Database; approvals: Approvals };

function toStaffClosure(
  user: { closed_at: Date | null; personal_data_removed_at: Date | null },
  pending: PendingReopeningRow | null,
): StaffAccountClosure {
  return {
    closedAt: user.closed_at?.toISOString() ?? null,
    personalDataRemovedAt: user.personal_data_removed_at?.toISOString() ?? null,
    pendingReopening: pending
      ? {
          id: pending.id,
          reason: pending.reason,
          requestedBy: {
            id: pending.requested_by_user_id,
            username: pending.requested_by_username,
          },
          createdAt: pending.created_at.toISOString(),
        }
      : null,
  };
}

/** A customer's closure as staff see it on the customer's page (404 for no such customer). */
export async function staffClosureOf(
  deps: { db: Queryable },
  userId: string,
): Promise<StaffAccountClosure> {
  const user = await requireCustomer(deps, userId);
  return toStaffClosure(user, await pendingReopeningOf(deps.db, userId));
}

/**
 * An admin asks to reopen a closed account, with a reason: it waits for a second admin,
 * always (approvals/: never the maker, never the customer). An account whose personal
 * data the retention job removed cannot be reopened: there is no one left to give it back to.
 */
export async function requestReopening(
  deps: ReopeningDeps,
  userId: string,
  action: StaffAction,
): Promise<StaffAccountClosure> {
  refuseOwnAccount(action, userId);
  await requireCustomer(deps, userId);
  await deps.db.transaction(async (tx) => {
    const user = await lockUser(tx, userId);
    if (!user) throw new AppError('not_found');
    if (!user.closed_at) {
      throw new AppError('state_conflict', { message: 'This account is not closed.' });
    }
    if (user.personal_data_removed_at) {
      throw new AppError('state_conflict', {
        message:
          'The personal data of this account was removed after the retention period: it cannot be reopened.',
      });
    }
    const isInserted = await insertReopening(tx, {
      id: newId(),
      userId,
      reason: action.reason,
      requestedByUserId: action.staff.userId,
    });
    if (!isInserted) {
      throw new AppError('state_conflict', {
        message: 'A reopening of this account is already waiting for a second admin.',
      });
    }
    await recordAudit(tx, {
      action: 'account_reopen_requested',
      actorUserId: action.staff.userId,
      subjectUserId: userId,
      reason: action.reason,
      ipAddress: action.ipAddress,
    });
  });
  return staffClosureOf(deps, userId);
}

/**
 * A second admin approves or rejects a pending reopening, or its requester withdraws it
 * (cancel); approvals/ checks who may.
 */
export async function decideReopening(
  deps: ReopeningDeps,
  reopeningId: string,
  decision: ApprovalDecision,
  action: StaffAction,
): Promise<StaffAccountClosure> {
  const userId = await deps.db.transaction(async (tx) => {
    const reopening = await lockReopening(tx, reopeningId);
    if (!reopening) throw new AppError('not_found');
    await deps.approvals.decide('account_reopening', tx, {
      id: reopeningId,
      decision,
      action,
      context: {},
    });
    return reopening.user_id;
  });
  return staffClosureOf(deps, userId);
}

/** Reopenings are decided through approvals/, which calls back here. */
export function reopeningApprovals(): ApprovalCallbacks<'account_reopening'> {
  return {
    lockPending: async (tx, id) => {
      const reopening = await lockReopening(tx, id);
      if (!reopening) throw new AppError('not_found');
      if (reopening.status !== 'pending') throw new AppError('already_decided');
      return { makerUserId: reopening.requested_by_user_id, subjectUserId: reopening.user_id };
    },
    onDecided: async (tx, { id, decision, action }) => {
      const reopening = await lockReopening(tx, id);
      if (!reopening) throw new AppError('not_found');
      const isApproved = decision === 'approve';
      const status = ({ approve: 'approved', reject: 'rejected', cancel: 'cancelled' } as const)[
        decision
      ];
      await recordReopeningDecision(tx, {
        id,
        status,
        decidedByUserId: action.staff.userId,
        reason: action.reason,
      });
      if (isApproved) {
        const user = await lockUser(tx, reopening.user_id);
        if (!user?.closed_at || user.personal_data_removed_at) {
          throw new AppError('state_conflict', { message: 'This account cannot be reopened.' });
        }
        await markReopened(tx, reopening.user_id);
      }
      await recordAudit(tx, {
        action: (
          {
            approved: 'account_reopened',
            rejected: 'account_reopen_rejected',
            cancelled: 'account_reopen_cancelled',
          } as const
        )[status],
        actorUserId: action.staff.userId,
        subjectUserId: reopening.user_id,
        after: { reopeningId: id, requestedByUserId: reopening.requested_by_user_id },
        reason: action.reason,
        ipAddress: action.ipAddress,
      });
    },
  };
}
