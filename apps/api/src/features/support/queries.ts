import type { SupportMessage } from '@coffer/contracts/support';
import type { StaffMember, SupportInboxItem } from '@coffer/contracts/support-staff';
import type { Queryable } from '../../db/client.ts';
import type { RowOf } from '../../db/rows.ts';
import type { supportMessages } from '../../db/schema.ts';
import { newId } from '../../platform/ids.ts';

type MessageRow = Pick<
  RowOf<typeof supportMessages>,
  'id' | 'body' | 'is_from_staff' | 'created_at'
> & { author_name: string };

function toMessage(row: MessageRow): SupportMessage {
  return {
    id: row.id,
    body: row.body,
    isFromStaff: row.is_from_staff,
    authorName: row.author_name,
    createdAt: row.created_at.toISOString(),
  };
}

/** The latest messages of a customer's thread, oldest first (ids are time-ordered). */
export async function threadMessages(
  db: Queryable,
  threadUserId: string,
  rowsMax: number,
): Promise<SupportMessage[]> {
  const found = await db.query<MessageRow>(
    `SELECT * FROM (
       SELECT m.id, m.body, m.is_from_staff, u.username AS author_name, m.created_at
         FROM support_messages m JOIN users u ON u.id = m.author_user_id
        WHERE m.thread_user_id = $1 ORDER BY m.id DESC LIMIT $2) latest
      ORDER BY id`,
    [threadUserId, rowsMax],
  );
  return found.rows.map(toMessage);
}

/** Staff replies newer than what the customer last read. */
export async function customerUnreadCount(db: Queryable, userId: string): Promise<number> {
  const found = await db.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM support_messages m
       JOIN support_threads t ON t.user_id = m.thread_user_id
      WHERE m.thread_user_id = $1 AND m.is_from_staff AND m.created_at > t.customer_read_at`,
    [userId],
  );
  return found.rows[0]?.count ?? 0;
}

export async function markReadByCustomer(db: Queryable, userId: string): Promise<void> {
  await db.query('UPDATE support_threads SET customer_read_at = now() WHERE user_id = $1', [
    userId,
  ]);
}

/**
 * Adds a message, opening the thread if it is the first. A customer's message marks the
 * thread as waiting for staff (keeping how long it has waited), opens it again if it was
 * resolved, and counts as read by them; a staff reply ends the wait, and the thread stays
 * in the inbox until staff resolve it.
 */
export async function insertMessage(
  tx: Queryable,
  message: { threadUserId: string; authorUserId: string; isFromStaff: boolean; body: string },
): Promise<SupportMessage> {
  await tx.query(
    `INSERT INTO support_threads AS t (user_id, awaiting_staff_since, customer_read_at)
     VALUES ($1, CASE WHEN $2 THEN NULL ELSE now() END, CASE WHEN $2 THEN '-infinity'::timestamptz ELSE now() END)
     ON CONFLICT (user_id) DO UPDATE SET
       awaiting_staff_since = CASE WHEN $2 THEN NULL ELSE coalesce(t.awaiting_staff_since, now()) END,
       customer_read_at = CASE WHEN $2 THEN t.customer_read_at ELSE now() END,
       resolved_at = CASE WHEN $2 THEN t.resolved_at ELSE NULL END,
       last_message_at = now()`,
    [message.threadUserId, message.isFromStaff],
  );
  const found = await tx.query<MessageRow>(
    `INSERT INTO support_messages (id, thread_user_id, author_user_id, is_from_staff, body)
     VALUES ($1, $2, $3, $4, $5)
     RETURNING id, body, is_from_staff, created_at,
               (SELECT username FROM users WHERE id = $3) AS author_name`,
    [newId(), message.threadUserId, message.authorUserId, message.isFromStaff, message.body],
  );
  const row = found.rows[0];
  if (!row) throw new Error('a message just inserted is returned');
  return toMessage(row);
}

type InboxRow = {
  user_id: string;
  username: string;
  awaiting_staff_since: Date | null;
  last_message_at: Date;
  last_body: string;
  assignee_id: string | null;
  assignee_username: string | null;
};

/**
 * The staff inbox: every thread not yet resolved, those waiting for a reply first (the
 * longest waiting first), then answered ones by their last message.
 */
export async function openThreads(db: Queryable, rowsMax: number): Promise<SupportInboxItem[]> {
  const found = await db.query<InboxRow>(
    `SELECT t.user_id, u.username, t.awaiting_staff_since, t.last_message_at,
            (SELECT m.body FROM support_messages m WHERE m.thread_user_id = t.user_id
              ORDER BY m.id DESC LIMIT 1) AS last_body,
            a.id AS assignee_id, a.username AS assignee_username
       FROM support_threads t JOIN users u ON u.id = t.user_id
       LEFT JOIN users a ON a.id = t.assigned_to_user_id
      WHERE t.resolved_at IS NULL
      ORDER BY t.awaiting_staff_since ASC NULLS LAST, t.last_message_at ASC LIMIT $1`,
    [rowsMax],
  );
  return found.rows.map((row) => ({
    userId: row.user_id,
    username: row.username,
    awaitingStaffSince: row.awaiting_staff_since?.toISOString() ?? null,
    lastMessageAt: row.last_message_at.toISOString(),
    lastMessagePreview: row.last_body.slice(0, 140),
    assignee: personOf(row.assignee_id, row.assignee_username),
  }));
}

function personOf(id: string | null, username: string | null) {
  return id !== null && username !== null ? { id, username } : null;
}

export type ThreadStateRow = {
  assignee_id: string | null;
  assignee_username: string | null;
  resolved_at: Date | null;
};

/** Who has the thread and whether it is resolved; null when the customer never wrote. */
export async function threadState(
  db: Queryable,
  threadUserId: string,
  options: { isLocked?: boolean } = {},
): Promise<ThreadStateRow | null> {
  const found = await db.query<ThreadStateRow>(
    `SELECT a.id AS assignee_id, a.username AS assignee_username, t.resolved_at
       FROM support_threads t LEFT JOIN users a ON a.id = t.assigned_to_user_id
      WHERE t.user_id = $1 ${options.isLocked ? 'FOR UPDATE OF t' : ''}`,
    [threadUserId],
  );
  return found.rows[0] ?? null;
}

export function assigneeOf(state: ThreadStateRow | null) {
  return state ? personOf(state.assignee_id, state.assignee_username) : null;
}

export async function assignThread(
  tx: Queryable,
  threadUserId: string,
  assigneeUserId: string,
): Promise<void> {
  await tx.query('UPDATE support_threads SET assigned_to_user_id = $2 WHERE user_id = $1', [
    threadUserId,
    assigneeUserId,
  ]);
}

/** Resolves the thread unless it is resolved already (false then). */
export async function resolveThread(tx: Queryable, threadUserId: string): Promise<boolean> {
  const changed = await tx.query(
    `UPDATE support_threads SET resolved_at = now()
      WHERE user_id = $1 AND resolved_at IS NULL RETURNING user_id`,
    [threadUserId],
  );
  return changed.rows.length > 0;
}

/** Support staff and admins, by name: whom a thread can be passed to. */
export async function staffMembers(db: Queryable, rowsMax: number): Promise<StaffMember[]> {
  const found = await db.query<{ id: string; username: string; role: 'support' | 'admin' }>(
    `SELECT id, username, role FROM users WHERE role IN ('support', 'admin')
      ORDER BY lower(username), id LIMIT $1`,
    [rowsMax],
  );
  return found.rows.map((row) => ({ id: row.id, username: row.username, role: row.role }));
}

export async function findStaffMember(db: Queryable, userId: string): Promise<StaffMember | null> {
  const found = await db.query<StaffMember>(
    `SELECT id, username, role FROM users WHERE id = $1 AND role IN ('support', 'admin')`,
    [userId],
  );
  return found.rows[0] ?? null;
}
