import type { SupportInboxItem, SupportMessage } from '@coffer/contracts/support';
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
 * Adds a message, opening the thread if it is the first. A customer's message puts the
 * thread in the staff inbox (keeping how long it has waited) and counts as read by them;
 * a staff reply takes it out.
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

/** The staff inbox: threads waiting for a staff reply, the longest waiting first. */
export async function awaitingThreads(db: Queryable, rowsMax: number): Promise<SupportInboxItem[]> {
  const found = await db.query<{
    user_id: string;
    username: string;
    awaiting_staff_since: Date;
    last_body: string;
  }>(
    `SELECT t.user_id, u.username, t.awaiting_staff_since,
            (SELECT m.body FROM support_messages m WHERE m.thread_user_id = t.user_id
              ORDER BY m.id DESC LIMIT 1) AS last_body
       FROM support_threads t JOIN users u ON u.id = t.user_id
      WHERE t.awaiting_staff_since IS NOT NULL
      ORDER BY t.awaiting_staff_since ASC LIMIT $1`,
    [rowsMax],
  );
  return found.rows.map((row) => ({
    userId: row.user_id,
    username: row.username,
    awaitingStaffSince: row.awaiting_staff_since.toISOString(),
    lastMessagePreview: row.last_body.slice(0, 140),
  }));
}
