import { z } from './zod.ts';

export const healthResponseSchema = z.object({
  status: z.literal('ok'),
  database: z.enum(['pglite', 'postgres']),
  isSandbox: z.boolean(),
});

export type HealthResponse = z.infer<typeof healthResponseSchema>;
