import {
  type RegisterWebhookBody,
  webhookDeliveryListSchema,
  webhookEndpointListSchema,
  webhookEndpointSchema,
  webhookSecretSchema,
} from '@coffer/contracts/webhooks';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, noContentSchema } from '../../lib/api-client.ts';
import { adminQueryRoot } from '../../lib/back-office.ts';

// Under 'admin': every live event refreshes them, so a delivery's status moves on its own.
const root = [...adminQueryRoot, 'webhooks'] as const;
const base = '/api/v1/admin/webhooks';

export const webhookEndpointsQueryOptions = queryOptions({
  queryKey: [...root, 'endpoints'],
  queryFn: ({ signal }) => apiRequest({ path: base, schema: webhookEndpointListSchema, signal }),
});

/** Deliveries move on without a live event: asked again while they are shown. */
const deliveriesRefreshMs = 5_000;

export function webhookDeliveriesQueryOptions(endpointId: string) {
  return queryOptions({
    queryKey: [...root, 'deliveries', endpointId],
    refetchInterval: deliveriesRefreshMs,
    queryFn: ({ signal }) =>
      apiRequest({
        path: `${base}/${endpointId}/deliveries`,
        schema: webhookDeliveryListSchema,
        signal,
      }),
  });
}

/** Every change refreshes the list and the deliveries shown. */
function useWebhookMutation<Body, Result>(mutationFn: (body: Body) => Promise<Result>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: root }),
  });
}

export function useRegisterWebhook() {
  return useWebhookMutation((body: RegisterWebhookBody) =>
    apiRequest({ method: 'POST', path: base, body, schema: webhookSecretSchema }),
  );
}

export function useRollWebhookSecret() {
  return useWebhookMutation((endpointId: string) =>
    apiRequest({
      method: 'POST',
      path: `${base}/${endpointId}/secret`,
      schema: webhookSecretSchema,
    }),
  );
}

export function useSetWebhookEnabled() {
  return useWebhookMutation(
    ({ endpointId, isEnabled }: { endpointId: string; isEnabled: boolean }) =>
      apiRequest({
        method: 'POST',
        path: `${base}/${endpointId}/${isEnabled ? 'enable' : 'disable'}`,
        schema: webhookEndpointSchema,
      }),
  );
}

export function useDeleteWebhook() {
  return useWebhookMutation((endpointId: string) =>
    apiRequest({ method: 'DELETE', path: `${base}/${endpointId}`, schema: noContentSchema }),
  );
}

export function useReplayDelivery() {
  return useWebhookMutation(
    ({ endpointId, deliveryId }: { endpointId: string; deliveryId: string }) =>
      apiRequest({
        method: 'POST',
        path: `${base}/${endpointId}/deliveries/${deliveryId}/replay`,
        schema: noContentSchema,
      }),
  );
}
