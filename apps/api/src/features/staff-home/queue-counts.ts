import { type QueueCounts, type QueueName, queueNames } from '@coffer/contracts/queues';
import type { Queryable } from '../../db/client.ts';

/**
 * How many items each work queue has open: one SQL expression per queue, the same rule
 * as the queue's own list. A feature that adds a queue (KYC, loans, cards) adds its line
 * here, and the staff home shows it; queues without a line do not exist in this build.
 */
export const openCountSql: Partial<Record<QueueName, string>> = {
  kyc: "SELECT count(*) FROM kyc_submissions WHERE status = 'pending'",
  payouts: "SELECT count(*) FROM payouts WHERE status = 'pending'",
  // Applications to decide, approved loans to pay out, and customers asking for an assessment.
  loans: `SELECT (SELECT count(*) FROM loans WHERE status IN ('pending', 'approved'))
    + (SELECT count(*) FROM loan_assessment_requests WHERE settled_at IS NULL)`,
  cards: "SELECT count(*) FROM cards WHERE status = 'requested'",
  deposits: "SELECT count(*) FROM money_requests WHERE status = 'pending_approval'",
  disputes: "SELECT count(*) FROM disputes WHERE status IN ('pending', 'investigating')",
  // A thread is open until staff resolve it, answered or not.
  support: 'SELECT count(*) FROM support_threads WHERE resolved_at IS NULL',
};

const builtQueues = queueNames.filter((queue) => openCountSql[queue]);
// Every count in one statement (one round trip, one snapshot), in the home's order.
const countsSql = `SELECT ${builtQueues
  .map((queue) => `(${openCountSql[queue]})::int AS "${queue}"`)
  .join(', ')}`;

/** The open count of every queue this build has, in the staff home's order. */
export async function openQueueCounts(db: Queryable): Promise<QueueCounts['items']> {
  const found = await db.query<Record<string, number>>(countsSql);
  const counts = found.rows[0] ?? {};
  return builtQueues.map((queue) => ({ queue, openCount: counts[queue] ?? 0 }));
}
