import type { QueueName } from '@coffer/contracts/queues';

/**
 * How many items each work queue has open: one SQL expression per queue, the same rule
 * as the queue's own list. A feature that adds a queue (KYC, loans, cards) adds its line
 * here, and the staff home shows it; queues without a line do not exist in this build.
 */
export const openCountSql: Partial<Record<QueueName, string>> = {
  kyc: "SELECT count(*) FROM kyc_submissions WHERE status = 'pending'",
  payouts: "SELECT count(*) FROM payouts WHERE status = 'pending'",
  deposits: "SELECT count(*) FROM money_requests WHERE status = 'pending_approval'",
  disputes: "SELECT count(*) FROM disputes WHERE status IN ('pending', 'investigating')",
  support: 'SELECT count(*) FROM support_threads WHERE awaiting_staff_since IS NOT NULL',
};
