import { booksAlertsSchema } from '@coffer/contracts/books';
import { queueCountsSchema } from '@coffer/contracts/queues';
import { webhookAlertsSchema } from '@coffer/contracts/webhook-alerts';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client.ts';

/** Under 'admin': every live event refreshes it, so the counts stay current. */
export const queueCountsQueryOptions = queryOptions({
  queryKey: ['admin', 'queues', 'counts'],
  queryFn: ({ signal }) =>
    apiRequest({ path: '/api/v1/admin/queues', schema: queueCountsSchema, signal }),
});

/** Closed days whose books did not balance or whose ledger check failed. */
export const booksAlertsQueryOptions = queryOptions({
  queryKey: ['admin', 'books', 'alerts'],
  queryFn: ({ signal }) =>
    apiRequest({ path: '/api/v1/admin/books/alerts', schema: booksAlertsSchema, signal }),
});

/** Webhook endpoints the delivery job turned off after failing for 24 hours. */
export const webhookAlertsQueryOptions = queryOptions({
  queryKey: ['admin', 'webhooks', 'alerts'],
  queryFn: ({ signal }) =>
    apiRequest({ path: '/api/v1/admin/webhooks/alerts', schema: webhookAlertsSchema, signal }),
});
