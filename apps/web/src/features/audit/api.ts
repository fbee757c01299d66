import { type AuditAction, auditPageSchema } from '@coffer/contracts/audit';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client.ts';
import { adminQueryRoot, withQuery } from '../../lib/back-office.ts';

const auditPageSize = 50;

export type AuditFilter = {
  action?: AuditAction | undefined;
  actorUserId?: string | undefined;
  subjectUserId?: string | undefined;
};

export function auditQueryOptions(filter: AuditFilter) {
  return infiniteQueryOptions({
    queryKey: [...adminQueryRoot, 'audit', filter],
    queryFn: ({ pageParam, signal }) =>
      apiRequest({
        path: withQuery('/api/v1/admin/audit', {
          ...filter,
          cursor: pageParam,
          limit: String(auditPageSize),
        }),
        schema: auditPageSchema,
        signal,
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
}
