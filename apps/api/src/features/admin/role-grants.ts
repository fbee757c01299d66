import { type CustomerDetail, staffFreezeReason } from '@coffer/contracts/admin';
import type { Role } from '@coffer/contracts/auth';
import type { Queryable } from '../../db/client.ts';
import type { StaffAction } from '../../platform/access.ts';
import { AppError } from '../../platform/app-error.ts';
import { recordAudit } from '../../platform/audit.ts';
import { publishEvent } from '../../platform/events.ts';
import { newId } from '../../platform/ids.ts';
import { revokeUserSessions } from '../../platform/sessions.ts';
import type { UserRow } from '../auth/queries.ts';
import { type AdminDeps, customerDetail, refuseOwnAccount, requireCustomer } from './service.ts';

type PendingGrantRow = {
  id: string;
  user_id: string;
  role: Role;
  reason: string;
  requested_by_user_id: string;
  requested_by_username: string;
  created_at: Date;
};

export async function pendingRoleGrantOf(
  db: Queryable,
  userId: string,
  options: { isLocked?: boolean } = {},
): Promise<PendingGrantRow | null> {
  const found = await db.query<PendingGrantRow>(
    `SELECT g.id, g.user_id, g.role, g.reason, g.requested_by_user_id,
            requester.username AS requested_by_username, g.created_at
       FROM role_grants g JOIN users requester ON requester.id = g.requested_by_user_id
      WHERE g.user_id = $1 AND g.status = 'pending'${options.isLocked ? ' FOR UPDATE OF g' : ''}`,
    [userId],
  );
  return found.rows[0] ?? null;
}

export function toPendingRoleGrant(row: PendingGrantRow): CustomerDetail['pendingRoleGrant'] {
  return {
    id: row.id,
    role: row.role,
    reason: row.reason,
    requestedBy: { id: row.requested_by_user_id, username: row.requested_by_username },
    createdAt: row.created_at.toISOString(),
  };
}

/**
 * Staff never move money of their own: a customer who becomes staff has their wallet
 * frozen with `staffFreezeReason`, and a staff member who becomes a customer again is
 * unfrozen only if that is still the freeze's reason (a freeze for fraud stays).
 */
async function applyStaffFreeze(tx: Queryable, user: UserRow, role: Role, action: StaffAction) {
  const becomesStaff = user.role === 'customer' && role !== 'customer';
  const changed = becomesStaff
    ? await tx.query(
        `UPDATE users SET frozen_at = now(), frozen_reason = $2, frozen_by_user_id = $3
          WHERE id = $1 AND frozen_at IS NULL RETURNING id`,
        [user.id, staffFreezeReason, action.staff.userId],
      )
    : role === 'customer'
      ? await tx.query(
          `UPDATE users SET frozen_at = NULL, frozen_reason = NULL, frozen_by_user_id = NULL
            WHERE id = $1 AND frozen_at IS NOT NULL AND frozen_reason = $2 RETURNING id`,
          [user.id, staffFreezeReason],
        )
      : { rows: [] };
  if (changed.rows.length === 0) return;
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
  await tx.query('UPDATE users SET role = $2 WHERE id = $1', [user.id, role]);
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
    if (role !== 'admin') return applyRole(tx, user, role, action);
    const inserted = await tx.query(
      `INSERT INTO role_grants (id, user_id, role, status, reason, requested_by_user_id)
       VALUES ($1, $2, 'admin', 'pending', $3, $4) ON CONFLICT DO NOTHING RETURNING id`,
      [newId(), userId, action.reason, action.staff.userId],
    );
    if (inserted.rows.length === 0) throw new AppError('state_conflict');
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
    await tx.query(
      `UPDATE role_grants SET status = $2, decided_by_user_id = $3, decision_reason = $4,
              decided_at = now() WHERE id = $1`,
      [
        grant.id,
        decision === 'approve' ? 'approved' : 'rejected',
        action.staff.userId,
        action.reason || null,
      ],
    );
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
