import { type ReopenBody, staffAccountClosureSchema } from '@coffer/contracts/account-reopenings';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client.ts';
import { adminQueryRoot } from '../../lib/back-office.ts';

/** A customer's closure on their staff page: when, and a reopening waiting for approval. */
export function staffClosureQueryOptions(userId: string) {
  return queryOptions({
    queryKey: [...adminQueryRoot, 'users', userId, 'closure'],
    queryFn: ({ signal }) =>
      apiRequest({
        path: `/api/v1/admin/users/${encodeURIComponent(userId)}/closure`,
        schema: staffAccountClosureSchema,
        signal,
      }),
  });
}

export function requestReopening(userId: string, body: ReopenBody) {
  return apiRequest({
    method: 'POST',
    path: `/api/v1/admin/users/${encodeURIComponent(userId)}/reopenings`,
    body,
    schema: staffAccountClosureSchema,
  });
}

export function decideReopening(
  reopeningId: string,
  decision: 'approve' | 'reject' | 'cancel',
  body: ReopenBody,
) {
  return apiRequest({
    method: 'POST',
    path: `/api/v1/admin/account-reopenings/${encodeURIComponent(reopeningId)}/${decision}`,
    body,
    schema: staffAccountClosureSchema,
  });
}
