import type { AuditAction } from '@coffer/contracts/audit';
import type { Queryable } from '../db/client.ts';
import { newId } from './ids.ts';

export type AuditRecord = {
  action: AuditAction;
  actorUserId: string | null;
  subjectUserId: string | null;
  before?: unknown;
  after?: unknown;
  reason?: string | null;
  ipAddress?: string | null;
};

/**
 * Appends one event to the audit log. Call it with the transaction of the action it
 * describes, so the action and its record commit (or roll back) together.
 */
export async function recordAudit(tx: Queryable, event: AuditRecord): Promise<void> {
  await tx.query(
    `INSERT INTO audit_events (id, actor_user_id, action, subject_user_id, before, after, reason, ip_address)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      newId(),
      event.actorUserId,
      event.action,
      event.subjectUserId,
      event.before === undefined ? null : JSON.stringify(event.before),
      event.after === undefined ? null : JSON.stringify(event.after),
      event.reason ?? null,
      event.ipAddress ?? null,
    ],
  );
}
