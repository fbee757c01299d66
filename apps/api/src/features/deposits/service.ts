import type { MoneyRequest } from '@coffer/contracts/admin';
import { toCurrencyCode } from '@coffer/contracts/currencies';
import { disputeReferenceSchema } from '@coffer/contracts/disputes';
import { memoLengthMax } from '@coffer/contracts/ledger';
import { formatMoney, minorUnits } from '@coffer/contracts/money';
import type { ApprovalCallbacks, Approvals } from '../../approvals/approvals.ts';
import { type Approvers, approversOf, isApprovalNeeded } from '../../approvals/rules.ts';
import type { Config } from '../../config.ts';
import { requireCustomer, walletIdOf } from '../../customers/customers.ts';
import { findUserById } from '../../customers/queries.ts';
import type { Database, Queryable } from '../../db/client.ts';
import type { AccountId, Ledger, PostingLine } from '../../ledger/ledger.ts';
import type { StaffAction } from '../../platform/access.ts';
import { positiveAmountOrRefuse } from '../../platform/amounts.ts';
import { AppError } from '../../platform/app-error.ts';
import { assert } from '../../platform/assert.ts';
import { recordAudit } from '../../platform/audit.ts';
import { publishEvent } from '../../platform/events.ts';
import { newId } from '../../platform/ids.ts';
import { notify } from '../../platform/notifications.ts';
import {
  findRequest,
  insertPendingRequest,
  type MoneyRequestDirection,
  type MoneyRequestRow,
  pendingRequests,
  recordRequestOutcome,
  requestsOfUser,
} from './queries.ts';

export type DepositDeps = { db: Database; ledger: Ledger; config: Config };

function toMoneyRequest(row: MoneyRequestRow, approvers: Approvers): MoneyRequest {
  return {
    id: row.id,
    userId: row.user_id,
    username: row.username,
    direction: row.direction,
    amountMinor: minorUnits(row.amount_minor),
    currency: row.currency,
    externalReference: row.external_reference,
    reason: row.reason,
    status: row.status,
    maker: { id: row.maker_user_id, username: row.maker_username },
    checker:
      row.checker_user_id && row.checker_username
        ? { id: row.checker_user_id, username: row.checker_username }
        : null,
    eligibleCheckers:
      row.status === 'pending_approval'
        ? approvers(pendingOf(row)).map(({ id, username }) => ({ id, username }))
        : [],
    decisionReason: row.decision_reason,
    createdAt: row.created_at.toISOString(),
    decidedAt: row.decided_at?.toISOString() ?? null,
  };
}

/** What the approval rules need to know of a money request. */
function pendingOf(row: Pick<MoneyRequestRow, 'maker_user_id' | 'user_id'>) {
  return { makerUserId: row.maker_user_id, subjectUserId: row.user_id };
}

/** A deposit credits the wallet from settlement; a debit adjustment takes it back there. */
function linesFor(
  direction: MoneyRequestDirection,
  walletId: AccountId,
  settlementId: AccountId,
  amountMinor: bigint,
): PostingLine[] {
  const [from, to] = direction === 'deposit' ? [settlementId, walletId] : [walletId, settlementId];
  return [
    { accountId: from, amountMinor: -amountMinor },
    { accountId: to, amountMinor },
  ];
}

/** Cuts text to `lengthMax` with an ellipsis, never between the halves of a surrogate pair. */
function shortened(text: string, lengthMax: number): string {
  if (text.length <= lengthMax) return text;
  let end = lengthMax - 1;
  if (/[\ud800-\udbff]/.test(text.charAt(end - 1))) end -= 1;
  return `${text.slice(0, end)}…`;
}

/**
 * The entry's memo, on one line. The request schema keeps a new request's reference and
 * reason short enough to fit (`moneyRequestReasonLengthMax`); a request saved before that
 * limit has its reason shortened here, so approving it still posts. The full reason stays
 * on the request and in the audit log.
 */
function memoOf(request: MoneyRequestRow): string {
  const reference = request.external_reference;
  if (request.direction === 'deposit') {
    // A deposit quoting a dispute's reference is that dispute's refund (disputes/ files
    // its refunds so), and the customer's statement says so.
    if (reference !== null && disputeReferenceSchema.safeParse(reference).success) {
      return `Refund (${reference})`;
    }
    return `Deposit${reference ? ` (ref. ${reference})` : ''}`;
  }
  return shortened(`Adjustment: ${request.reason.replace(/\s+/g, ' ')}`, memoLengthMax);
}

/** The customer hears of a posted deposit or adjustment in the posting's transaction. */
async function notifyPosted(deps: DepositDeps, tx: Queryable, request: MoneyRequestRow) {
  const amount = formatMoney({
    amountMinor: request.amount_minor,
    currency: toCurrencyCode(request.currency),
  });
  await notify(
    tx,
    request.direction === 'deposit'
      ? {
          userId: request.user_id,
          kind: 'deposit_posted',
          text: `${amount} was deposited to your account.`,
          link: '/dashboard',
        }
      : {
          userId: request.user_id,
          kind: 'account_debited',
          text: `${amount} was taken from your account: ${request.reason}`,
          link: '/dashboard',
        },
    deps.config,
  );
}

async function postRequest(
  deps: DepositDeps,
  tx: Queryable,
  request: MoneyRequestRow,
  settlementId: AccountId,
  actorUserId: string,
): Promise<string> {
  try {
    const { entryId } = await deps.ledger.post(
      {
        kind: request.direction === 'deposit' ? 'deposit' : 'adjustment',
        memo: memoOf(request),
        actorUserId,
        lines: linesFor(request.direction, request.account_id, settlementId, request.amount_minor),
      },
      tx,
    );
    await notifyPosted(deps, tx, request);
    return entryId;
  } catch (error) {
    if (error instanceof AppError && error.code === 'insufficient_funds') {
      throw new AppError('insufficient_funds', { message: 'Insufficient funds' });
    }
    throw error;
  }
}

export type MoneyRequestTarget = { userId: string; walletId: AccountId; settlementId: AccountId };

/** Looks up what a request needs before its transaction opens. */
export async function moneyRequestTarget(
  deps: DepositDeps,
  userId: string,
): Promise<MoneyRequestTarget> {
  const subject = await requireCustomer(deps, userId);
  // Staff never move money of their own, so nobody prepares a request for them either.
  if (subject.role !== 'customer') throw new AppError('staff_wallet');
  const walletId = await walletIdOf(deps, userId);
  if (!walletId) throw new AppError('not_found', { message: 'This person has no wallet.' });
  const { currency } = await deps.ledger.balance(walletId);
  return {
    userId,
    walletId,
    settlementId: await deps.ledger.systemAccount('settlement', currency),
  };
}

/**
 * Records a staff deposit or debit adjustment. An admin's request at or under the
 * approval threshold, within her daily total, posts at once; otherwise, or prepared by
 * support, or when the caller's own rule says so (`isApprovalRequired`: a dispute refund
 * above what was disputed), it waits for approval by a second admin (approvals/). The
 * audit event commits with it.
 */
export async function createMoneyRequest(
  deps: DepositDeps,
  tx: Queryable,
  target: MoneyRequestTarget,
  direction: MoneyRequestDirection,
  body: { amount: string; externalReference?: string | undefined },
  action: StaffAction,
  options: { isApprovalRequired?: boolean } = {},
): Promise<MoneyRequest> {
  const { userId, walletId } = target;
  const balance = await deps.ledger.balance(walletId, tx);
  const currency = toCurrencyCode(balance.currency);
  const amountMinor = positiveAmountOrRefuse(body.amount, currency, 'moneyRequest');
  if (direction === 'debit_adjustment' && balance.availableMinor < amountMinor) {
    throw new AppError('insufficient_funds', { message: 'Insufficient funds' });
  }
  const needsApproval = await isApprovalNeeded(deps, tx, action.staff, currency, amountMinor, {
    isRequired: options.isApprovalRequired === true,
  });
  const requestId = newId();
  await insertPendingRequest(tx, {
    id: requestId,
    userId,
    accountId: walletId,
    direction,
    amountMinor,
    currency: balance.currency,
    externalReference: body.externalReference ?? null,
    reason: action.reason,
    makerUserId: action.staff.userId,
  });
  const request = await findRequest(tx, requestId);
  if (!request) throw new Error('a request just inserted is found');
  if (!needsApproval) {
    const entryId = await postRequest(deps, tx, request, target.settlementId, action.staff.userId);
    await recordRequestOutcome(tx, requestId, {
      status: 'posted',
      checkerUserId: null,
      decisionReason: null,
      entryId,
    });
  }
  // A pending request changes no balance, but the staff's queues show it.
  await publishEvent(tx, {
    userId,
    topics: needsApproval ? ['money-requests'] : ['wallet', 'money-requests'],
  });
  await recordAudit(tx, {
    action:
      direction === 'deposit'
        ? needsApproval
          ? 'deposit_requested'
          : 'deposit_recorded'
        : needsApproval
          ? 'adjustment_requested'
          : 'adjustment_recorded',
    actorUserId: action.staff.userId,
    subjectUserId: userId,
    after: {
      amountMinor: amountMinor.toString(),
      currency: balance.currency,
      externalReference: body.externalReference ?? null,
    },
    reason: action.reason,
    ipAddress: action.ipAddress,
  });
  const saved = await findRequest(tx, requestId);
  if (!saved) throw new Error('a request just inserted is found');
  return toMoneyRequest(saved, await approversOf(tx));
}

async function lockPending(tx: Queryable, requestId: string): Promise<MoneyRequestRow> {
  const request = await findRequest(tx, requestId, { isLocked: true });
  if (!request) throw new AppError('not_found');
  if (request.status !== 'pending_approval') throw new AppError('already_decided');
  return request;
}

/**
 * Money requests are decided through approvals/ (its rules: who may approve or cancel),
 * which calls back here: an approved request posts (its subject must still be a
 * customer), a rejected or cancelled one is closed.
 */
export function moneyRequestApprovals(deps: DepositDeps): ApprovalCallbacks<'money_request'> {
  return {
    lockPending: async (tx, requestId) => pendingOf(await lockPending(tx, requestId)),
    onDecided: async (tx, { id, decision, action, context }) => {
      const request = await lockPending(tx, id);
      if (decision === 'cancel') {
        await closeRequest(tx, request, {
          status: 'cancelled',
          checkerUserId: null,
          entryId: null,
          action,
        });
        return;
      }
      if (decision === 'approve') await refuseStaffSubject(tx, request.user_id);
      const entryId =
        decision === 'approve'
          ? await postRequest(deps, tx, request, settlementOf(context), action.staff.userId)
          : null;
      await closeRequest(tx, request, {
        status: decision === 'approve' ? 'posted' : 'rejected',
        checkerUserId: action.staff.userId,
        entryId,
        action,
      });
    },
  };
}

function settlementOf(context: { settlementId?: AccountId }): AccountId {
  assert(context.settlementId !== undefined, 'an approved request comes with its settlement');
  return context.settlementId;
}

/** A second admin approves (posts) or rejects a pending request (approvals/ rules). */
export async function decideMoneyRequest(
  deps: DepositDeps,
  approvals: Approvals,
  requestId: string,
  decision: 'approve' | 'reject',
  action: StaffAction,
): Promise<MoneyRequest> {
  // Resolved before the transaction: on PGlite nothing may use the database inside one.
  const pending = await findRequest(deps.db, requestId);
  if (!pending) throw new AppError('not_found');
  const settlementId = await deps.ledger.systemAccount(
    'settlement',
    toCurrencyCode(pending.currency),
  );
  await deps.db.transaction((tx) =>
    approvals.decide('money_request', tx, {
      id: requestId,
      decision,
      action,
      context: { settlementId },
    }),
  );
  return moneyRequestById(deps, requestId);
}

/** The maker withdraws her own request while it is still pending. */
export async function cancelMoneyRequest(
  deps: DepositDeps,
  approvals: Approvals,
  requestId: string,
  action: StaffAction,
): Promise<MoneyRequest> {
  await deps.db.transaction((tx) =>
    approvals.decide('money_request', tx, {
      id: requestId,
      decision: 'cancel',
      action,
      context: {},
    }),
  );
  return moneyRequestById(deps, requestId);
}

async function refuseStaffSubject(tx: Queryable, userId: string) {
  const subject = await findUserById(tx, userId);
  if (subject?.role !== 'customer') throw new AppError('staff_wallet');
}

const closingAudit = {
  posted: 'money_request_approved',
  rejected: 'money_request_rejected',
  cancelled: 'money_request_cancelled',
} as const;

/** Ends a pending request, with its event and audit entry, in the caller's transaction. */
async function closeRequest(
  tx: Queryable,
  request: MoneyRequestRow,
  outcome: {
    status: 'posted' | 'rejected' | 'cancelled';
    checkerUserId: string | null;
    entryId: string | null;
    action: StaffAction;
  },
) {
  const { action } = outcome;
  await publishEvent(tx, {
    userId: request.user_id,
    topics: outcome.entryId ? ['wallet', 'money-requests'] : ['money-requests'],
  });
  await recordRequestOutcome(tx, request.id, {
    status: outcome.status,
    checkerUserId: outcome.checkerUserId,
    decisionReason: action.reason || null,
    entryId: outcome.entryId,
  });
  await recordAudit(tx, {
    action: closingAudit[outcome.status],
    actorUserId: action.staff.userId,
    subjectUserId: request.user_id,
    before: { status: 'pending_approval', makerUserId: request.maker_user_id },
    after: {
      status: outcome.status,
      amountMinor: request.amount_minor.toString(),
      currency: request.currency,
    },
    reason: action.reason || null,
    ipAddress: action.ipAddress,
  });
}

async function moneyRequestById(deps: DepositDeps, requestId: string): Promise<MoneyRequest> {
  const found = await findRequest(deps.db, requestId);
  if (!found) throw new AppError('not_found');
  return toMoneyRequest(found, await approversOf(deps.db));
}

const queueLengthMax = 200;

/** Oldest first: the work queue of requests waiting for a second admin. */
export async function pendingMoneyRequests(deps: DepositDeps): Promise<MoneyRequest[]> {
  const rows = await pendingRequests(deps.db, queueLengthMax);
  const approvers = await approversOf(deps.db);
  return rows.map((row) => toMoneyRequest(row, approvers));
}

export async function moneyRequestsOf(deps: DepositDeps, userId: string): Promise<MoneyRequest[]> {
  const rows = await requestsOfUser(deps.db, userId, queueLengthMax);
  const approvers = await approversOf(deps.db);
  return rows.map((row) => toMoneyRequest(row, approvers));
}
