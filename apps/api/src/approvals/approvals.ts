import type { Queryable } from '../db/client.ts';
import type { AccountId } from '../ledger/ledger.ts';
import type { StaffAction } from '../platform/access.ts';
import { assert } from '../platform/assert.ts';
import { type ApprovalDecision, type PendingApproval, refuseUnlessMayDecide } from './rules.ts';

/**
 * The kinds of staff posting that wait for approval, each kept in its feature's own table
 * today (ADR 035): deposits, debit adjustments and dispute refunds are money requests
 * (deposits), a loan's payout is its disbursement (loans), a closed account's reopening is
 * an account reopening (account-closure, ADR 050).
 */
export const approvalKinds = ['money_request', 'loan_disbursement', 'account_reopening'] as const;
export type ApprovalKind = (typeof approvalKinds)[number];

/** What each kind's decision needs looked up before its transaction opens (PGlite). */
export type ApprovalContexts = {
  money_request: { settlementId?: AccountId };
  loan_disbursement: { receivableId: AccountId; now: Date };
  account_reopening: Record<string, never>;
};

export type DecidedApproval<Kind extends ApprovalKind> = {
  id: string;
  decision: ApprovalDecision;
  action: StaffAction;
  context: ApprovalContexts[Kind];
};

/** What a feature registers for its kind: how to find a pending one, what to do once decided. */
export type ApprovalCallbacks<Kind extends ApprovalKind> = {
  /** Locks the posting in the decision's transaction; refuses one that is no longer pending. */
  lockPending: (tx: Queryable, id: string) => Promise<PendingApproval>;
  /** Called back in the same transaction once the rules allow the decision. */
  onDecided: (tx: Queryable, decided: DecidedApproval<Kind>) => Promise<void>;
};

type CallbacksByKind = { [Kind in ApprovalKind]: ApprovalCallbacks<Kind> };
type FollowersByKind = { [Kind in ApprovalKind]: ApprovalCallbacks<Kind>['onDecided'][] };

/**
 * Approval by a second admin: each feature whose staff postings wait for a second admin
 * registers its kind here at plugin time, so that the rules live in one place and this
 * module imports no feature: the features use approvals, never the other way round.
 */
export class Approvals {
  private readonly byKind: Partial<CallbacksByKind> = {};
  private readonly followers: FollowersByKind = {
    money_request: [],
    loan_disbursement: [],
    account_reopening: [],
  };

  register<Kind extends ApprovalKind>(kind: Kind, callbacks: CallbacksByKind[Kind]) {
    assert(this.byKind[kind] === undefined, `a second registration for ${kind} approvals`);
    this.byKind[kind] = callbacks;
  }

  /**
   * Another feature's step after each decision of a kind it does not own, in the same
   * transaction, once the owner's has run: a dispute resolves when its refund is approved.
   */
  follow<Kind extends ApprovalKind>(
    kind: Kind,
    onDecided: ApprovalCallbacks<Kind>['onDecided'],
  ): void {
    this.followers[kind].push(onDecided);
  }

  /** The kinds no feature has registered (none, once the app is ready). */
  missing(): ApprovalKind[] {
    return approvalKinds.filter((kind) => this.byKind[kind] === undefined);
  }

  /**
   * Decides a pending posting in the caller's transaction: locks it, refuses a decision
   * the rules do not allow (`refuseUnlessMayDecide`), then calls its feature back.
   */
  async decide<Kind extends ApprovalKind>(
    kind: Kind,
    tx: Queryable,
    decided: DecidedApproval<Kind>,
  ): Promise<void> {
    const callbacks = this.byKind[kind];
    assert(callbacks !== undefined, `no approval callbacks for ${kind}`);
    const pending = await callbacks.lockPending(tx, decided.id);
    await refuseUnlessMayDecide(tx, pending, decided.decision, decided.action.staff.userId);
    await callbacks.onDecided(tx, decided);
    for (const follower of this.followers[kind]) await follower(tx, decided);
  }
}
