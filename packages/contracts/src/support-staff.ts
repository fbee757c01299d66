// The support inbox and thread as staff handle them. Apart from support.ts, which the
// customer's shell loads on every page (the unread badge), so these schemas stay out of
// the customer's pages (apps/web/budgets.json).
import { supportMessageSchema } from './support.ts';
import { z } from './zod.ts';

const staffPersonSchema = z.object({ id: z.string(), username: z.string() });

/** A colleague a thread can be passed to. */
export const staffMemberSchema = z.object({
  id: z.string(),
  username: z.string(),
  role: z.enum(['support', 'admin']),
});
export type StaffMember = z.infer<typeof staffMemberSchema>;

/**
 * A thread in the staff inbox: whose, since when it waits for a reply (null once
 * answered: it stays until resolved), who has it, and its last words.
 */
export const supportInboxItemSchema = z.object({
  userId: z.string(),
  username: z.string(),
  awaitingStaffSince: z.nullable(z.iso.datetime()),
  lastMessageAt: z.iso.datetime(),
  lastMessagePreview: z.string(),
  assignee: z.nullable(staffPersonSchema),
});
export const supportInboxSchema = z.object({ items: z.array(supportInboxItemSchema) });
export type SupportInboxItem = z.infer<typeof supportInboxItemSchema>;

/** The thread as staff see it: who has it, whether it is resolved, whom it can go to. */
export const staffSupportThreadSchema = z.object({
  messages: z.array(supportMessageSchema),
  unreadCount: z.number().check(z.int()),
  assignee: z.nullable(staffPersonSchema),
  resolvedAt: z.nullable(z.iso.datetime()),
  colleagues: z.array(staffMemberSchema),
});
export type StaffSupportThread = z.infer<typeof staffSupportThreadSchema>;

export const supportAssignBodySchema = z.object({
  assigneeUserId: z.uuid('Pick a colleague'),
});
export type SupportAssignBody = z.infer<typeof supportAssignBodySchema>;

export const supportMessages = {
  assigned: 'Thread assigned',
  resolved: 'Thread marked resolved',
  assigneeNotStaff: 'Assign the thread to a member of staff',
} as const;
