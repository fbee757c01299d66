import { multiLineText } from './text.ts';
import { z } from './zod.ts';

export const supportMessageLengthMax = 4_000;

/** Plain text; the web app shows it as text, with web addresses made into links. */
export const supportMessageBodySchema = z.object({
  body: multiLineText({
    max: supportMessageLengthMax,
    tooLong: `Use at most ${supportMessageLengthMax.toLocaleString('en-US')} characters`,
  }).check(z.minLength(1, 'Write a message')),
});

export const supportMessageSchema = z.object({
  id: z.string(),
  body: z.string(),
  isFromStaff: z.boolean(),
  /** The customer's username, or for staff messages who wrote it. */
  authorName: z.string(),
  createdAt: z.iso.datetime(),
});
export type SupportMessage = z.infer<typeof supportMessageSchema>;

export const supportThreadSchema = z.object({
  messages: z.array(supportMessageSchema),
  /** Staff replies the customer has not seen yet. */
  unreadCount: z.number().check(z.int()),
});
export type SupportThread = z.infer<typeof supportThreadSchema>;

export const supportUnreadSchema = z.object({ unreadCount: z.number().check(z.int()) });
