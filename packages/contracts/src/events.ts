import { z } from './zod.ts';

/**
 * What changed, as the web app's caches name it. Each topic invalidates the queries
 * that show it (apps/web/src/lib/live-events.ts): `wallet` is the balance, held funds,
 * transactions and chart; the others are one feature's lists.
 */
export const liveTopics = [
  'wallet',
  'transfers',
  'payouts',
  'bill-payments',
  'money-requests',
  'customer',
  'kyc',
  'notifications',
  'disputes',
  'support',
  'cards',
  'loans',
  'scheduled-payments',
] as const;
export type LiveTopic = (typeof liveTopics)[number];

/**
 * One Server-Sent Event. A customer's stream carries the events about them; the staff
 * stream carries every event, with the customer's id so a page can tell whose.
 */
export const liveEventSchema = z.object({
  userId: z.string(),
  topics: z.array(z.enum(liveTopics)).check(z.minLength(1)),
});
export type LiveEvent = z.infer<typeof liveEventSchema>;

/** The SSE `event:` name of every data message. */
export const liveEventName = 'change';
