import { z } from './zod.ts';

export const healthResponseSchema = z.object({
  status: z.literal('ok'),
  database: z.enum(['pglite', 'postgres']),
  isSandbox: z.boolean(),
});

export type HealthResponse = z.infer<typeof healthResponseSchema>;

/**
 * What `/api/health/live` and `/api/health/ready` answer with 200 (a load balancer reads
 * the status; readiness refuses with 503 `unavailable` in the one error shape).
 */
export const probeResponseSchema = z.object({ status: z.literal('ok') });

export type ProbeResponse = z.infer<typeof probeResponseSchema>;
