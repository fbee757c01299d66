import type { Notification } from '@coffer/contracts/notifications';
import type { Queryable } from '../../db/client.ts';
import type { RowOf } from '../../db/rows.ts';
import type { notifications } from '../../db/schema.ts';
import { notificationTextFor, readerLanguageSql } from '../../platform/notifications.ts';

type NotificationRow = Pick<
  RowOf<typeof notifications>,
  'id' | 'kind' | 'text' | 'link' | 'read_at' | 'created_at' | 'is_english_source'
> & { reader_language: string | null };

/**
 * A notification as its reader sees it: Quick Pay's, written in English before its
 * statement knew the reader (migration 0054), in the reader's language now (ADR 057).
 */
export function toNotification(row: NotificationRow): Notification {
  return {
    id: row.id,
    kind: row.kind,
    text: notificationTextFor(row),
    link: row.link,
    isRead: row.read_at !== null,
    createdAt: row.created_at.toISOString(),
  };
}

/** One person's notifications, newest first (ids are time-ordered), after `cursor`. */
export async function notificationsOfUser(
  db: Queryable,
  userId: string,
  page: { cursor?: string | undefined; rowsMax: number },
): Promise<NotificationRow[]> {
  const found = await db.query<NotificationRow>(
    `SELECT id, kind, text, link, read_at, created_at, is_english_source,
            ${readerLanguageSql('$1')}
       FROM notifications
      WHERE user_id = $1 AND ($2::uuid IS NULL OR id < $2::uuid)
      ORDER BY id DESC LIMIT $3`,
    [userId, page.cursor ?? null, page.rowsMax],
  );
  return found.rows;
}

export async function unreadCountOf(db: Queryable, userId: string): Promise<number> {
  const found = await db.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM notifications WHERE user_id = $1 AND read_at IS NULL',
    [userId],
  );
  return found.rows[0]?.count ?? 0;
}

/** Marks one of the person's own notifications read; false when it is not theirs. */
export async function markRead(db: Queryable, userId: string, id: string): Promise<boolean> {
  const found = await db.query(
    `UPDATE notifications SET read_at = coalesce(read_at, now())
      WHERE id = $1 AND user_id = $2 RETURNING id`,
    [id, userId],
  );
  return found.rows.length > 0;
}

export async function markAllRead(db: Queryable, userId: string): Promise<void> {
  await db.query(
    'UPDATE notifications SET read_at = now() WHERE user_id = $1 AND read_at IS NULL',
    [userId],
  );
}

export async function wantsNotificationEmails(db: Queryable, userId: string): Promise<boolean> {
  const found = await db.query<{ wants_notification_emails: boolean }>(
    'SELECT wants_notification_emails FROM users WHERE id = $1',
    [userId],
  );
  return found.rows[0]?.wants_notification_emails ?? false;
}

export async function setWantsNotificationEmails(
  db: Queryable,
  userId: string,
  wants: boolean,
): Promise<void> {
  await db.query('UPDATE users SET wants_notification_emails = $2 WHERE id = $1', [userId, wants]);
}
