import {
  accountClosureSchema,
  type CloseAccountBody,
  closedAccountSchema,
} from '@coffer/contracts/account-closure';
import { queryOptions, useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client.ts';

/** Whether the account can be closed now and, if not, every reason with its way forward. */
export const accountClosureQueryOptions = queryOptions({
  queryKey: ['account-closure'],
  queryFn: ({ signal }) =>
    apiRequest({ path: '/api/v1/account-closure', schema: accountClosureSchema, signal }),
});

/** Closes the account with the password again; the server ends every session with it. */
export function useCloseAccount() {
  return useMutation({
    mutationFn: (body: CloseAccountBody) =>
      apiRequest({
        method: 'POST',
        path: '/api/v1/account-closure',
        body,
        schema: closedAccountSchema,
      }),
  });
}
