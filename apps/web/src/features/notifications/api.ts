import {
  type NotificationEmailSetting,
  notificationEmailSettingSchema,
  notificationPageSchema,
} from '@coffer/contracts/notifications';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { apiRequest, noContentSchema } from '../../lib/api-client.ts';

/** Live `notifications` events make every query under this root stale. */
export const notificationsQueryRoot = ['notifications'] as const;

const bellItemsMax = 5;
const pageSize = 20;

/** The bell: the unread count and the latest few. */
export const bellQueryOptions = queryOptions({
  queryKey: [...notificationsQueryRoot, 'bell'],
  queryFn: ({ signal }) =>
    apiRequest({
      path: `/api/v1/notifications?limit=${bellItemsMax}`,
      schema: notificationPageSchema,
      signal,
    }),
});

/** The full list, newest first. */
export const notificationListQueryOptions = infiniteQueryOptions({
  queryKey: [...notificationsQueryRoot, 'list'],
  queryFn: ({ pageParam, signal }) =>
    apiRequest({
      path: `/api/v1/notifications?${new URLSearchParams({
        limit: String(pageSize),
        ...(pageParam ? { cursor: pageParam } : {}),
      }).toString()}`,
      schema: notificationPageSchema,
      signal,
    }),
  initialPageParam: null as string | null,
  getNextPageParam: (page) => page.nextCursor,
});

export function markNotificationRead(notificationId: string): Promise<void> {
  return apiRequest({
    method: 'POST',
    path: `/api/v1/notifications/${encodeURIComponent(notificationId)}/read`,
    schema: noContentSchema,
  });
}

export function markAllNotificationsRead(): Promise<void> {
  return apiRequest({
    method: 'POST',
    path: '/api/v1/notifications/read-all',
    schema: noContentSchema,
  });
}

export const emailSettingQueryOptions = queryOptions({
  queryKey: [...notificationsQueryRoot, 'email-setting'],
  queryFn: ({ signal }) =>
    apiRequest({
      path: '/api/v1/notifications/email-setting',
      schema: notificationEmailSettingSchema,
      signal,
    }),
});

export function saveEmailSetting(setting: NotificationEmailSetting) {
  return apiRequest({
    method: 'PATCH',
    path: '/api/v1/notifications/email-setting',
    body: setting,
    schema: notificationEmailSettingSchema,
  });
}
