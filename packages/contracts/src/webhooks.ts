// Webhooks for integrators (issue #34 item 1, ADR 048): the endpoints an admin registers,
// what each delivery and attempt looked like, and the events' types.
import { entryKinds } from './ledger.ts';
import { singleLineText } from './text.ts';
import { z } from './zod.ts';

export * from './webhook-alerts.ts';

/** One event type per kind of ledger entry: `money.deposit`, `money.transfer` … */
export const webhookEventTypes = entryKinds.map((kind) => `money.${kind}` as const);
export type WebhookEventType = (typeof webhookEventTypes)[number];

export const webhookUrlLengthMax = 2_000;

/**
 * An endpoint's address: an absolute http(s) URL without credentials. The server also
 * refuses plain http and private addresses unless COFFER_WEBHOOKS_ALLOW_PRIVATE is set,
 * which only it knows.
 */
export const webhookUrlSchema = singleLineText({ max: webhookUrlLengthMax }).check(
  z.superRefine((text, context) => {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      context.addIssue({ code: 'custom', message: 'Enter a full address, https://…' });
      return;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      context.addIssue({ code: 'custom', message: 'The address must start with https://' });
    }
    if (url.username !== '' || url.password !== '') {
      context.addIssue({ code: 'custom', message: 'Leave the user name and password out' });
    }
  }),
);

export const webhookEventTypesSchema = z
  .array(z.enum(webhookEventTypes))
  .check(z.minLength(1, 'Choose at least one event'), z.maxLength(webhookEventTypes.length));

export const registerWebhookBodySchema = z.object({
  url: webhookUrlSchema,
  eventTypes: webhookEventTypesSchema,
});
export type RegisterWebhookBody = z.infer<typeof registerWebhookBodySchema>;

export const webhookEndpointIdParamsSchema = z.object({ endpointId: z.uuid() });
export const webhookDeliveryParamsSchema = z.object({
  endpointId: z.uuid(),
  deliveryId: z.string().check(z.regex(/^[1-9][0-9]{0,17}$/, 'Not a delivery id')),
});

export const webhookEndpointStatuses = ['enabled', 'disabled'] as const;

export const webhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  eventTypes: z.array(z.string()),
  status: z.enum(webhookEndpointStatuses),
  /** 'failing': turned off after failing for 24 hours; 'staff': by an admin. */
  disabledReason: z.nullable(z.enum(['failing', 'staff'])),
  disabledAt: z.nullable(z.string()),
  failingSince: z.nullable(z.string()),
  /** Until then the secret before the last roll signs too. */
  previousSecretExpiresAt: z.nullable(z.string()),
  createdAt: z.string(),
  pendingCount: z.number(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

export const webhookEndpointListSchema = z.object({ items: z.array(webhookEndpointSchema) });
export type WebhookEndpointList = z.infer<typeof webhookEndpointListSchema>;

/** Shown once, when it is made or rolled: Coffer keeps it sealed and never shows it again. */
export const webhookSecretSchema = z.object({
  endpoint: webhookEndpointSchema,
  secret: z.string(),
});
export type WebhookSecret = z.infer<typeof webhookSecretSchema>;

export const webhookAttemptSchema = z.object({
  startedAt: z.string(),
  durationMs: z.number(),
  url: z.string(),
  statusCode: z.nullable(z.number()),
  error: z.nullable(z.string()),
  /** At most the first 1,024 bytes of the answer, as text. */
  responseHead: z.string(),
});

export const webhookDeliveryStatuses = ['pending', 'delivered', 'failed'] as const;

export const webhookDeliverySchema = z.object({
  id: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  status: z.enum(webhookDeliveryStatuses),
  attemptCount: z.number(),
  nextAttemptAt: z.nullable(z.string()),
  createdAt: z.string(),
  finishedAt: z.nullable(z.string()),
  replayOfId: z.nullable(z.string()),
  attempts: z.array(webhookAttemptSchema),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveryListSchema = z.object({ items: z.array(webhookDeliverySchema) });
export type WebhookDeliveryList = z.infer<typeof webhookDeliveryListSchema>;
