import type { AuditAction, AuditEvent } from '@coffer/contracts/audit';
import type { Queryable } from '../../db/client.ts';
import type { RowOf } from '../../db/rows.ts';
import type { auditEvents } from '../../db/schema.ts';

/** The event joined with the two people's usernames; `action` is one of the contract's. */
type AuditRow = Omit<RowOf<typeof auditEvents>, 'action'> & {
  action: AuditAction;
  actor_username: string | null;
  subject_username: string | null;
};

export type AuditFilter = {
  action?: AuditAction | undefined;
  actorUserId?: string | undefined;
  subjectUserId?: string | undefined;
  cursor?: string | undefined;
  limit: number;
};

/** Newest first (ids are time-ordered); every filter is optional. */
export async function listAuditEvents(
  db: Queryable,
  filter: AuditFilter,
): Promise<{ items: AuditEvent[]; nextCursor: string | null }> {
  const found = await db.query<AuditRow>(
    `SELECT e.id, e.action, e.actor_user_id, actor.username AS actor_username,
            e.subject_user_id, subject.username AS subject_username,
            e.before, e.after, e.reason, e.ip_address, e.created_at
       FROM audit_events e
       LEFT JOIN users actor ON actor.id = e.actor_user_id
       LEFT JOIN users subject ON subject.id = e.subject_user_id
      WHERE ($1::text IS NULL OR e.action = $1)
        AND ($2::uuid IS NULL OR e.actor_user_id = $2::uuid)
        AND ($3::uuid IS NULL OR e.subject_user_id = $3::uuid)
        AND ($4::uuid IS NULL OR e.id < $4::uuid)
      ORDER BY e.id DESC LIMIT $5`,
    [
      filter.action ?? null,
      filter.actorUserId ?? null,
      filter.subjectUserId ?? null,
      filter.cursor ?? null,
      filter.limit + 1,
    ],
  );
  const hasMore = found.rows.length > filter.limit;
  const rows = hasMore ? found.rows.slice(0, filter.limit) : found.rows;
  return {
    items: rows.map((row) => ({
      id: row.id,
      action: row.action,
      actor: row.actor_user_id
        ? { id: row.actor_user_id, username: row.actor_username ?? '' }
        : null,
      subject: row.subject_user_id
        ? { id: row.subject_user_id, username: row.subject_username ?? '' }
        : null,
      before: row.before ?? null,
      after: row.after ?? null,
      reason: row.reason,
      ipAddress: row.ip_address,
      createdAt: row.created_at.toISOString(),
    })),
    nextCursor: hasMore ? (rows.at(-1)?.id ?? null) : null,
  };
}
