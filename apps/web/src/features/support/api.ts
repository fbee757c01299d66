import {
  supportMessageSchema,
  supportThreadSchema,
  supportUnreadSchema,
} from '@coffer/contracts/support';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest, noContentSchema } from '../../lib/api-client.ts';

/** Live `support` events make every query under this root stale. */
export const supportQueryRoot = ['support'] as const;

export const myThreadQueryOptions = queryOptions({
  queryKey: [...supportQueryRoot, 'thread'],
  queryFn: ({ signal }) =>
    apiRequest({ path: '/api/v1/support/thread', schema: supportThreadSchema, signal }),
});

/** The shell's badge: staff replies the customer has not seen. */
export const supportUnreadQueryOptions = queryOptions({
  queryKey: [...supportQueryRoot, 'unread'],
  queryFn: ({ signal }) =>
    apiRequest({ path: '/api/v1/support/unread', schema: supportUnreadSchema, signal }),
});

export function sendSupportMessage(body: string) {
  return apiRequest({
    method: 'POST',
    path: '/api/v1/support/messages',
    body: { body },
    schema: supportMessageSchema,
  });
}

export function markThreadRead() {
  return apiRequest({
    method: 'POST',
    path: '/api/v1/support/thread/read',
    schema: noContentSchema,
  });
}
