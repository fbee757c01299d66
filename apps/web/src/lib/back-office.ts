// What every back-office feature shares: the query root one invalidation refreshes, the
// path of a person, and the person's details (staff screens name the customer they act on).
import { customerDetailSchema } from '@coffer/contracts/admin';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from './api-client.ts';

/** Every back-office query starts with this key, so one invalidation refreshes them all. */
export const adminQueryRoot = ['admin'] as const;

/** `path` with the query parameters that have a value. */
export function withQuery(path: string, query: Record<string, string | null | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value) params.set(name, value);
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

export function adminUserPath(userId: string): string {
  return `/api/v1/admin/users/${encodeURIComponent(userId)}`;
}

export function customerDetailQueryOptions(userId: string) {
  return queryOptions({
    queryKey: [...adminQueryRoot, 'users', userId],
    queryFn: ({ signal }) =>
      apiRequest({ path: adminUserPath(userId), schema: customerDetailSchema, signal }),
  });
}
