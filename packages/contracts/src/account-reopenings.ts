import { reasonSchema, staffNameSchema } from './admin.ts';
import { z } from './zod.ts';

/** An admin's request to reopen a closed account, waiting for a second admin (ADR 050). */
export const pendingReopeningSchema = z.object({
  id: z.string(),
  reason: z.string(),
  requestedBy: staffNameSchema,
  createdAt: z.string(),
});

/** A customer's closure as staff see it on the customer's page. */
export const staffAccountClosureSchema = z.object({
  closedAt: z.nullable(z.string()),
  /** The retention job removed the person's data: the account cannot be reopened. */
  personalDataRemovedAt: z.nullable(z.string()),
  pendingReopening: z.nullable(pendingReopeningSchema),
});
export type StaffAccountClosure = z.infer<typeof staffAccountClosureSchema>;

export const reopenBodySchema = z.object({ reason: reasonSchema });
export type ReopenBody = z.infer<typeof reopenBodySchema>;
