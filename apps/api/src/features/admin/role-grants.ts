import { type CustomerDetail, staffFreezeReason } from '@coffer/contracts/admin';
import type { Role } from '@coffer/contracts/auth';
import { refuseOwnAccount, requireCustomer } from '../../customers/customers.ts';
import { freezeUser, type UserRow, unfreezeUser } from '../../customers/queries.ts';
import type { Queryable } from '../../db/client.ts';
import type { StaffAction } from '../../platform/access.ts';
import { AppError } from '../../platform/app-error.ts';
import { recordAudit } from '../../platform/audit.ts';
import { publishEvent } from '../../platform/events.ts';
import { newId } from '../../platform/ids.ts';
import { revokeUserSessions } from '../../platform/sessions.ts';
import {
  insertGrantedAtOnce,
  insertPendingAdminGrant,
  pendingRoleGrantOf,
  recordRoleGrantDecision,
  setUserRole,
} from './queries.ts';
import { type AdminDeps, customerDetail } from './service.ts';

/**
 * Staff never move money of their own: a customer who becomes staff has their wallet
 * frozen with `staffFreezeReason`, and a staff member who becomes a customer again is
 * unfrozen only if that is still the freeze's reason (a freeze for fraud stays).
 */
async function applyStaffFreeze(tx: Queryable, user: UserRow, role: Role, action: StaffAction) {
  const becomesStaff = user.role === 'customer' && role !== 'customer';
  const isChanged = becomesStaff
    ? await freezeUser(tx, user.id, { reason: staffFreezeReason, byUserId: action.staff.userId })
    : role === 'customer' && (await unfreezeUser(tx, user.id, { onlyReason: staffFreezeReason }));
  if (!isChanged) return;
  await recordAudit(tx, {
    action: becomesStaff ? 'account_frozen' : 'account_unfrozen',
    actorUserId: action.staff.userId,
    subjectUserId: user.id,
    before: { isFrozen: !becomesStaff },
    after: { isFrozen: becomesStaff },
    reason: staffFreezeReason,
    ipAddress: action.ipAddress,
  });
}

/** A change of role is a change of privilege: the person's sessions all end. */
async function applyRole(tx: Queryable, user: UserRow, role: Role, action: StaffAction) {
  await setUserRole(tx, user.id, role);
  await revokeUserSessions(tx, user.id);
  await applyStaffFreeze(tx, user, role, action);
  await recordAudit(tx, {
    action: 'role_changed',
    actorUserId: action.staff.userId,
    subjectUserId: user.id,
    before: { role: user.role },
    after: { role },
    reason: action.reason,
    ipAddress: action.ipAddress,
  });
  await publishEvent(tx, { userId: user.id, topics: ['customer'] });
}

/**
 * Support and customer roles change at once. The admin role is only requested here: it
 * waits for a second admin (`decideRoleGrant`), so no admin can make herself a checker.
 */
export async function setRole(deps: AdminDeps, userId: string, role: Role, action: StaffAction) {
  refuseOwnAccount(action, userId);
  const user = await requireCustomer(deps, userId);
  if (user.role === role) throw new AppError('state_conflict');
  await deps.db.transaction(async (tx) => {
    if (role !== 'admin') {
      // Support is granted at once, but recorded like an admin grant: whoever made a person
      // staff may never approve that person's postings (approvals/rules.ts approversOf).
      if (role === 'support') {
        await insertGrantedAtOnce(tx, {
          id: newId(),
          userId,
          role,
          reason: action.reason,
          requestedByUserId: action.staff.userId,
        });
      }
      return applyRole(tx, user, role, action);
    }
    const isRequested = await insertPendingAdminGrant(tx, {
      id: newId(),
      userId,
      reason: action.reason,
      requestedByUserId: action.staff.userId,
    });
    if (!isRequested) throw new AppError('state_conflict');
    await recordAudit(tx, {
      action: 'admin_role_requested',
      actorUserId: action.staff.userId,
      subjectUserId: userId,
      before: { role: user.role },
      after: { role },
      reason: action.reason,
      ipAddress: action.ipAddress,
    });
    await publishEvent(tx, { userId, topics: ['customer'] });
  });
  return customerDetail(deps, userId);
}

/** The second admin approves or rejects a pending grant; never its requester or its subject. */
export async function decideRoleGrant(
  deps: AdminDeps,
  userId: string,
  decision: 'approve' | 'reject',
  action: StaffAction,
): Promise<CustomerDetail> {
  refuseOwnAccount(action, userId);
  const user = await requireCustomer(deps, userId);
  await deps.db.transaction(async (tx) => {
    const grant = await pendingRoleGrantOf(tx, userId, { isLocked: true });
    if (!grant) throw new AppError('already_decided');
    if (grant.requested_by_user_id === action.staff.userId) throw new AppError('own_request');
    await recordRoleGrantDecision(tx, grant.id, {
      status: decision === 'approve' ? 'approved' : 'rejected',
      decidedByUserId: action.staff.userId,
      reason: action.reason || null,
    });
    if (decision === 'approve') {
      await applyRole(tx, user, grant.role, { ...action, reason: grant.reason });
    }
    await recordAudit(tx, {
      action: decision === 'approve' ? 'admin_role_approved' : 'admin_role_rejected',
      actorUserId: action.staff.userId,
      subjectUserId: userId,
      before: { status: 'pending', requestedByUserId: grant.requested_by_user_id },
      after: { status: decision === 'approve' ? 'approved' : 'rejected', role: grant.role },
      reason: action.reason || null,
      ipAddress: action.ipAddress,
    });
    await publishEvent(tx, { userId, topics: ['customer'] });
  });
  return customerDetail(deps, userId);
}
