// What the crash-safety harness concludes from what its clients were told and what the
// database holds afterwards. Pure: the unit test feeds it fabricated violations.

/** The operations the load sends; each names its effect so the database can be asked for it. */
export type OperationKind =
  | 'quick-pay'
  | 'payout'
  | 'payout-send'
  | 'payout-reject'
  | 'deposit'
  | 'deposit-approve'
  | 'card-authorization'
  | 'loan-repayment';

/** How one attempt ended: a 2xx, a definite refusal (4xx), or no answer to rely on. */
export type AttemptOutcome = 'acked' | 'refused' | 'unanswered';

export type RequestRecord = {
  kind: OperationKind;
  /** The idempotency key, the same for every attempt. */
  key: string;
  attempts: AttemptOutcome[];
  /** The error code of the last refusal, for the figures. */
  refusalCode?: string;
  /** When the acknowledged attempt was sent and answered (Date.now()), for failover times. */
  acked?: { sentAtMs: number; atMs: number };
};

/** What the database holds once every instance and PostgreSQL are back. */
export type DatabaseFacts = {
  /** How many times each key's effect exists (keys of every record). */
  effectCounts: ReadonlyMap<string, number>;
  /** The customers' total before the load, plus deposits, minus money paid out and repaid. */
  expectedTotalMinor: bigint;
  /** The customers' wallets summed afterwards. */
  actualTotalMinor: bigint;
  /** Active holds, pending payouts (amount and fee) and approved card authorizations, summed. */
  activeHoldsMinor: bigint;
  pendingPayoutsMinor: bigint;
  approvedCardAuthorizationsMinor: bigint;
  /**
   * Loans whose outstanding principal is not their amount less the principal their
   * repayments paid.
   */
  loanMismatches: number;
  /**
   * Payouts and card authorizations whose hold's state does not match theirs (pending or
   * approved/active, sent/captured, rejected/released; a declined one has no hold).
   */
  holdMismatches: number;
  /** checkInvariants (apps/api/src/ledger/invariants.ts). */
  ledgerViolations: string[];
};

export type Verdict = {
  sent: number;
  acked: number;
  retried: number;
  /** Requests whose every attempt went unanswered: either outcome is allowed. */
  unknown: number;
  violations: string[];
};

function isAcked(record: RequestRecord): boolean {
  return record.attempts.includes('acked');
}

function isRefusedEveryTime(record: RequestRecord): boolean {
  return record.attempts.length > 0 && record.attempts.every((outcome) => outcome === 'refused');
}

/** The violation of one request, if its effect is not what its answers promise. */
function requestViolation(record: RequestRecord, count: number): string | null {
  const name = `${record.kind} ${record.key}`;
  if (count > 1) return `${name}: effect exists ${count} times`;
  if (isAcked(record) && count !== 1) return `${name}: acknowledged but its effect is missing`;
  if (isRefusedEveryTime(record) && count !== 0) {
    return `${name}: every attempt was refused but its effect exists`;
  }
  return null;
}

export function judge(records: readonly RequestRecord[], facts: DatabaseFacts): Verdict {
  const violations: string[] = [];
  for (const record of records) {
    const violation = requestViolation(record, facts.effectCounts.get(record.key) ?? 0);
    if (violation) violations.push(violation);
  }
  if (facts.actualTotalMinor !== facts.expectedTotalMinor) {
    violations.push(
      `money not conserved: wallets hold ${facts.actualTotalMinor}, expected ${facts.expectedTotalMinor}`,
    );
  }
  const heldForMinor = facts.pendingPayoutsMinor + facts.approvedCardAuthorizationsMinor;
  if (facts.activeHoldsMinor !== heldForMinor) {
    violations.push(
      `holds ${facts.activeHoldsMinor} differ from pending payouts ${facts.pendingPayoutsMinor} and approved card authorizations ${facts.approvedCardAuthorizationsMinor}`,
    );
  }
  if (facts.holdMismatches > 0) {
    violations.push(
      `${facts.holdMismatches} payouts or card authorizations disagree with their hold`,
    );
  }
  if (facts.loanMismatches > 0) {
    violations.push(
      `${facts.loanMismatches} loans owe other than their amount less what was repaid`,
    );
  }
  violations.push(...facts.ledgerViolations.map((violation) => `ledger: ${violation}`));
  return {
    sent: records.length,
    acked: records.filter(isAcked).length,
    retried: records.filter((record) => record.attempts.length > 1).length,
    unknown: records.filter((record) => !isAcked(record) && !isRefusedEveryTime(record)).length,
    violations,
  };
}
