import type { NotificationPage } from '@coffer/contracts/notifications';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../platform/app-error.ts';
import { publishEvent } from '../../platform/events.ts';
import {
  markAllRead,
  markRead,
  notificationsOfUser,
  toNotification,
  unreadCountOf,
} from './queries.ts';

export type NotificationDeps = { db: Database };

export async function notificationPage(
  deps: NotificationDeps,
  userId: string,
  page: { cursor?: string | undefined; limit: number },
): Promise<NotificationPage> {
  // One row more than the page shows tells whether there is a next page.
  const rows = await notificationsOfUser(deps.db, userId, {
    cursor: page.cursor,
    rowsMax: page.limit + 1,
  });
  const hasMore = rows.length > page.limit;
  const shown = hasMore ? rows.slice(0, page.limit) : rows;
  return {
    items: shown.map(toNotification),
    unreadCount: await unreadCountOf(deps.db, userId),
    nextCursor: hasMore ? (shown.at(-1)?.id ?? null) : null,
  };
}

/** Someone else's notification answers 404, as if it did not exist. */
export async function readNotification(
  deps: NotificationDeps,
  userId: string,
  notificationId: string,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    if (!(await markRead(tx, userId, notificationId))) throw new AppError('not_found');
    // The person's other open tabs update their bell too.
    await publishEvent(tx, { userId, topics: ['notifications'] });
  });
}

export async function readAllNotifications(deps: NotificationDeps, userId: string) {
  await deps.db.transaction(async (tx) => {
    await markAllRead(tx, userId);
    await publishEvent(tx, { userId, topics: ['notifications'] });
  });
}
