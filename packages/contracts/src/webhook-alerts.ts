// The staff home's warning about webhook endpoints, apart from the rest of webhooks.ts so
// that every staff page loads only this (ADR 021's page budgets).
import { z } from './zod.ts';

/** Endpoints the delivery job turned off after failing for 24 hours. */
export const webhookAlertsSchema = z.object({
  items: z.array(z.object({ id: z.string(), url: z.string(), disabledAt: z.nullable(z.string()) })),
});
export type WebhookAlerts = z.infer<typeof webhookAlertsSchema>;
