// The back office's support requests, apart from api.ts, which the customer's shell loads
// on every page (the unread badge): their schemas stay out of the customer's pages.

import { supportMessageSchema } from '@coffer/contracts/support';
import {
  type SupportAssignBody,
  staffSupportThreadSchema,
  supportInboxSchema,
} from '@coffer/contracts/support-staff';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client.ts';

// Back-office queries start with 'admin', so every live event refreshes them for staff.

export const supportInboxQueryOptions = queryOptions({
  queryKey: ['admin', 'queues', 'support'],
  queryFn: ({ signal }) =>
    apiRequest({ path: '/api/v1/admin/queues/support', schema: supportInboxSchema, signal }),
});

export function customerThreadQueryOptions(userId: string) {
  return queryOptions({
    queryKey: ['admin', 'users', userId, 'support'],
    queryFn: ({ signal }) =>
      apiRequest({
        path: `/api/v1/admin/users/${encodeURIComponent(userId)}/support`,
        schema: staffSupportThreadSchema,
        signal,
      }),
  });
}

export function sendStaffReply(userId: string, body: string) {
  return apiRequest({
    method: 'POST',
    path: `/api/v1/admin/users/${encodeURIComponent(userId)}/support`,
    body: { body },
    schema: supportMessageSchema,
  });
}

export function assignThread(userId: string, body: SupportAssignBody) {
  return apiRequest({
    method: 'PUT',
    path: `/api/v1/admin/users/${encodeURIComponent(userId)}/support/assignee`,
    body,
    schema: staffSupportThreadSchema,
  });
}

export function resolveThread(userId: string) {
  return apiRequest({
    method: 'POST',
    path: `/api/v1/admin/users/${encodeURIComponent(userId)}/support/resolve`,
    schema: staffSupportThreadSchema,
  });
}
