// Type-only from payees.ts: the pickers above Quick Pay and Pay Bills load this module, and
// the schemas of a new payee (with the withdrawal's IBAN checks) are not for them.
import type { AddPayeeBody, RenamePayeeBody } from '@coffer/contracts/payees';
import { type Payee, payeeListSchema, payeeSchema } from '@coffer/contracts/saved-payees';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, noContentSchema } from '../../lib/api-client.ts';
import { newIdempotencyKey } from '../../lib/idempotency.ts';

export const payeesQueryOptions = queryOptions({
  queryKey: ['payees'],
  queryFn: ({ signal }) => apiRequest({ path: '/api/v1/payees', schema: payeeListSchema, signal }),
});

/**
 * Adds a payee. One Idempotency-Key per payee being added (`idempotencyKey`), so a retry
 * after a dropped connection saves it once and spends the code once.
 */
export function useAddPayee() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: AddPayeeBody; idempotencyKey: string }) =>
      apiRequest({
        method: 'POST',
        path: '/api/v1/payees',
        body,
        headers: { 'idempotency-key': idempotencyKey },
        schema: payeeSchema,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: payeesQueryOptions.queryKey }),
  });
}

export { newIdempotencyKey };

export function useRenamePayee(payeeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RenamePayeeBody): Promise<Payee> =>
      apiRequest({
        method: 'PATCH',
        path: `/api/v1/payees/${encodeURIComponent(payeeId)}`,
        body,
        schema: payeeSchema,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: payeesQueryOptions.queryKey }),
  });
}

export function useDeletePayee() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (payeeId: string) =>
      apiRequest({
        method: 'DELETE',
        path: `/api/v1/payees/${encodeURIComponent(payeeId)}`,
        schema: noContentSchema,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: payeesQueryOptions.queryKey }),
  });
}
