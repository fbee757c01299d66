// What the database holds after the chaos run, read for the verdict (verdict.ts).
import type { Queryable } from '../../apps/api/src/db/client.ts';
import { checkInvariants } from '../../apps/api/src/ledger/invariants.ts';
import type { DatabaseFacts, OperationKind, RequestRecord } from './verdict.ts';

/**
 * For each kind, the rows its effect leaves, keyed by the text the request carried its
 * idempotency key in (load.ts); a key's count is how many times its effect exists.
 */
const effectQueries: Record<OperationKind, string> = {
  'quick-pay':
    'SELECT note AS key, count(*)::int AS count FROM transfers WHERE note = ANY($1) GROUP BY note',
  payout: `SELECT destination->>'bankName' AS key, count(*)::int AS count FROM payouts
            WHERE destination->>'bankName' = ANY($1) GROUP BY 1`,
  'payout-send': `SELECT external_reference AS key, count(*)::int AS count FROM payouts
                   WHERE external_reference = ANY($1) AND status = 'sent' GROUP BY 1`,
  'payout-reject': `SELECT decision_reason AS key, count(*)::int AS count FROM payouts
                     WHERE decision_reason = ANY($1) AND status = 'rejected' GROUP BY 1`,
  deposit: `SELECT external_reference AS key, count(*)::int AS count FROM money_requests
             WHERE external_reference = ANY($1) GROUP BY 1`,
  'deposit-approve': `SELECT decision_reason AS key, count(*)::int AS count FROM money_requests
                       WHERE decision_reason = ANY($1) AND status = 'posted' GROUP BY 1`,
  // Approved or declined, an answered authorization is recorded once under the processor's id.
  'card-authorization': `SELECT processor_id AS key, count(*)::int AS count FROM card_authorizations
                          WHERE processor_id = ANY($1) GROUP BY 1`,
  // A repayment carries no text of the customer's: its loan and amount name it (load.ts).
  'loan-repayment': `SELECT key, count(*)::int AS count
                       FROM (SELECT 'loan-repayment:' || loan_id || ':' || amount_minor AS key
                               FROM loan_repayments WHERE NOT is_automatic) AS repayments
                      WHERE key = ANY($1) GROUP BY 1`,
};

async function effectCounts(
  db: Queryable,
  records: readonly RequestRecord[],
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const [kind, sql] of Object.entries(effectQueries)) {
    const keys = records.filter((record) => record.kind === kind).map((record) => record.key);
    const found = await db.query<{ key: string; count: number }>(sql, [keys]);
    for (const row of found.rows) counts.set(row.key, row.count);
  }
  return counts;
}

async function sumMinor(db: Queryable, sql: string, walletIds: string[]): Promise<bigint> {
  const found = await db.query<{ total: bigint | null }>(sql, [walletIds]);
  return BigInt(found.rows[0]?.total ?? 0n);
}

/** The money sums over the run's wallets: what they hold, what came in and went out. */
async function moneyFacts(db: Queryable, walletIds: string[], startTotalMinor: bigint) {
  const sum = (sql: string) => sumMinor(db, sql, walletIds);
  const depositedMinor = await sum(
    `SELECT sum(amount_minor)::bigint AS total FROM money_requests
      WHERE account_id = ANY($1::uuid[]) AND direction = 'deposit' AND status = 'posted'`,
  );
  const paidOutMinor = await sum(
    `SELECT sum(amount_minor + fee_minor)::bigint AS total FROM payouts
      WHERE account_id = ANY($1::uuid[]) AND status = 'sent'`,
  );
  const repaidMinor = await sum(
    `SELECT sum(r.amount_minor)::bigint AS total FROM loan_repayments r
       JOIN loans l ON l.id = r.loan_id
       JOIN accounts a ON a.owner_user_id = l.user_id AND a.currency = l.currency
      WHERE a.id = ANY($1::uuid[])`,
  );
  return {
    expectedTotalMinor: startTotalMinor + depositedMinor - paidOutMinor - repaidMinor,
    actualTotalMinor: await sum(
      'SELECT sum(balance_minor)::bigint AS total FROM account_balances WHERE account_id = ANY($1::uuid[])',
    ),
    activeHoldsMinor: await sum(
      `SELECT sum(amount_minor)::bigint AS total FROM holds
        WHERE account_id = ANY($1::uuid[]) AND status = 'active'`,
    ),
    pendingPayoutsMinor: await sum(
      `SELECT sum(amount_minor + fee_minor)::bigint AS total FROM payouts
        WHERE account_id = ANY($1::uuid[]) AND status = 'pending'`,
    ),
    approvedCardAuthorizationsMinor: await sum(
      `SELECT sum(amount_minor)::bigint AS total FROM card_authorizations
        WHERE account_id = ANY($1::uuid[]) AND status = 'approved'`,
    ),
  };
}

export async function readFacts(
  db: Queryable,
  records: readonly RequestRecord[],
  wallets: { walletIds: string[]; startTotalMinor: bigint },
): Promise<DatabaseFacts> {
  const mismatches = await db.query<{ count: number }>(
    `SELECT ((SELECT count(*) FROM payouts p JOIN holds h ON h.id = p.hold_id
              WHERE NOT ((p.status = 'pending' AND h.status = 'active')
                      OR (p.status = 'sent' AND h.status = 'captured')
                      OR (p.status = 'rejected' AND h.status = 'released')))
          + (SELECT count(*) FROM card_authorizations a LEFT JOIN holds h ON h.id = a.hold_id
              WHERE ((a.status = 'approved' AND h.status = 'active')
                      OR (a.status = 'declined' AND a.hold_id IS NULL)) IS NOT TRUE))::int AS count`,
  );
  // Principal repaid plus principal owed is what was lent, for every loan paid out.
  const loanMismatches = await db.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM loans l
      WHERE l.status IN ('disbursed', 'repaid')
        AND l.amount_minor <> l.outstanding_principal_minor
          + (SELECT coalesce(sum(principal_minor), 0) FROM loan_repayments WHERE loan_id = l.id)`,
  );
  return {
    effectCounts: await effectCounts(db, records),
    ...(await moneyFacts(db, wallets.walletIds, wallets.startTotalMinor)),
    holdMismatches: mismatches.rows[0]?.count ?? 0,
    loanMismatches: loanMismatches.rows[0]?.count ?? 0,
    ledgerViolations: await checkInvariants(db),
  };
}
