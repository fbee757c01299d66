import { z } from './zod.ts';

/** PRODUCT.md's work queues, in the order the staff home shows them. */
export const queueNames = [
  'kyc',
  'payouts',
  'loans',
  'cards',
  'deposits',
  'disputes',
  'support',
] as const;
export type QueueName = (typeof queueNames)[number];

export const queueLabels: Record<QueueName, string> = {
  kyc: 'KYC',
  payouts: 'Payouts',
  loans: 'Loans',
  cards: 'Cards',
  deposits: 'Deposits',
  disputes: 'Disputes',
  support: 'Support',
};

/** The open count of every queue that exists in this build; the others are absent. */
export const queueCountsSchema = z.object({
  items: z.array(z.object({ queue: z.enum(queueNames), openCount: z.number().check(z.int()) })),
});
export type QueueCounts = z.infer<typeof queueCountsSchema>;
