import type { MoneyRequest } from '@coffer/contracts/admin';
import { type CurrencyCode, toCurrencyCode } from '@coffer/contracts/currencies';
import { memoLengthMax } from '@coffer/contracts/ledger';
import { formatMoney, minorUnits } from '@coffer/contracts/money';
import type { Queryable } from '../../db/client.ts';
import type { AccountId, PostingLine } from '../../ledger/ledger.ts';
import type { StaffAction } from '../../platform/access.ts';
import { positiveAmountOrRefuse } from '../../platform/amounts.ts';
import { AppError } from '../../platform/app-error.ts';
import { recordAudit } from '../../platform/audit.ts';
import { publishEvent } from '../../platform/events.ts';
import { newId } from '../../platform/ids.ts';
import { notify } from '../../platform/notifications.ts';
import { type AdminDeps, requireCustomer, walletIdOf } from '../admin/service.ts';
import { findUserById } from '../auth/queries.ts';
import {
  addToDailyTotal,
  adminNames,
  approvedStaffGrants,
  findRequest,
  insertPendingRequest,
  type MoneyRequestDirection,
  type MoneyRequestRow,
  pendingRequests,
  recordRequestOutcome,
  requestsOfUser,
  type StaffName,
} from './queries.ts';

/**
 * Who may check whose requests: every admin except the maker, the subject, any admin
 * whose promotion the maker requested or approved, and any admin who made the maker staff
 * (support or admin): each pair of eyes must be independent of the other. Read once,
 * applied to each request.
 */
export async function checkerRules(db: Queryable) {
  // One after the other: inside a transaction both share one connection.
  const admins = await adminNames(db);
  const grants = await approvedStaffGrants(db);
  const isPromotedBy = (personId: string, promoterId: string) =>
    grants.some(
      (grant) =>
        grant.user_id === personId &&
        (grant.requested_by_user_id === promoterId || grant.decided_by_user_id === promoterId),
    );
  return (request: Pick<MoneyRequestRow, 'maker_user_id' | 'user_id'>): StaffName[] =>
    admins.filter(
      (admin) =>
        admin.id !== request.maker_user_id &&
        admin.id !== request.user_id &&
        !isPromotedBy(admin.id, request.maker_user_id) &&
        !isPromotedBy(request.maker_user_id, admin.id),
    );
}
type EligibleCheckers = Awaited<ReturnType<typeof checkerRules>>;

function toMoneyRequest(row: MoneyRequestRow, eligibleCheckers: EligibleCheckers): MoneyRequest {
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
        ? eligibleCheckers(row).map(({ id, username }) => ({ id, username }))
        : [],
    decisionReason: row.decision_reason,
    createdAt: row.created_at.toISOString(),
    decidedAt: row.decided_at?.toISOString() ?? null,
  };
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
  if (request.direction === 'deposit') {
    return `Deposit${request.external_reference ? ` (ref. ${request.external_reference})` : ''}`;
  }
  return shortened(`Adjustment: ${request.reason.replace(/\s+/g, ' ')}`, memoLengthMax);
}

/** The customer hears of a posted deposit or adjustment in the posting's transaction. */
async function notifyPosted(deps: AdminDeps, tx: Queryable, request: MoneyRequestRow) {
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
  deps: AdminDeps,
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
  deps: AdminDeps,
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
 * Spends `amountMinor` of the maker's daily total for posting without a second admin, in
 * one conditional upsert: the row stays locked until the transaction ends, so a concurrent
 * posting waits and then sees this one. False when the total would be exceeded.
 */
async function spendDailyTotal(
  tx: Queryable,
  makerUserId: string,
  currency: string,
  amountMinor: bigint,
  dailyTotalMinor: bigint,
): Promise<boolean> {
  if (amountMinor > dailyTotalMinor) return false;
  return addToDailyTotal(tx, { makerUserId, currency, amountMinor, dailyTotalMinor });
}

/**
 * The four-eyes rule of every staff posting (deposits, adjustments, loan disbursements):
 * a second admin is needed for anything support prepares, anything above the currency's
 * threshold, any currency without limits (it has no threshold), and what would take the
 * admin past her daily total. Otherwise the amount is spent from that total here.
 */
export async function isSecondAdminNeeded(
  deps: Pick<AdminDeps, 'config'>,
  tx: Queryable,
  staff: StaffAction['staff'],
  currency: CurrencyCode,
  amountMinor: bigint,
): Promise<boolean> {
  const limits = deps.config.limits.limitsFor(currency);
  return (
    staff.role !== 'admin' ||
    !limits ||
    amountMinor > limits.fourEyesThresholdMinor ||
    !(await spendDailyTotal(
      tx,
      staff.userId,
      currency,
      amountMinor,
      limits.fourEyesDailyTotalMinor,
    ))
  );
}

/**
 * Records a staff deposit or debit adjustment. An admin's request at or under the
 * four-eyes threshold, within her daily total, posts at once; otherwise, or prepared by
 * support, or when the caller's own rule says so (`isSecondAdminRequired`: a dispute
 * refund above what was disputed), it waits for a second admin. The audit event commits
 * with it.
 */
export async function createMoneyRequest(
  deps: AdminDeps,
  tx: Queryable,
  target: MoneyRequestTarget,
  direction: MoneyRequestDirection,
  body: { amount: string; externalReference?: string | undefined },
  action: StaffAction,
  options: { isSecondAdminRequired?: boolean } = {},
): Promise<MoneyRequest> {
  const { userId, walletId } = target;
  const balance = await deps.ledger.balance(walletId, tx);
  const currency = toCurrencyCode(balance.currency);
  const amountMinor = positiveAmountOrRefuse(body.amount, currency, 'moneyRequest');
  if (direction === 'debit_adjustment' && balance.availableMinor < amountMinor) {
    throw new AppError('insufficient_funds', { message: 'Insufficient funds' });
  }
  // Required by the caller, it waits whatever the threshold, and spends no daily total.
  const needsSecondAdmin =
    options.isSecondAdminRequired === true ||
    (await isSecondAdminNeeded(deps, tx, action.staff, currency, amountMinor));
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
  if (!needsSecondAdmin) {
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
    topics: needsSecondAdmin ? ['money-requests'] : ['wallet', 'money-requests'],
  });
  await recordAudit(tx, {
    action:
      direction === 'deposit'
        ? needsSecondAdmin
          ? 'deposit_requested'
          : 'deposit_recorded'
        : needsSecondAdmin
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
  return toMoneyRequest(saved, await checkerRules(tx));
}

async function lockPending(tx: Queryable, requestId: string): Promise<MoneyRequestRow> {
  const request = await findRequest(tx, requestId, { isLocked: true });
  if (!request) throw new AppError('not_found');
  if (request.status !== 'pending_approval') throw new AppError('already_decided');
  return request;
}

/**
 * The second pair of eyes: an admin who is not the maker, not the subject, and not
 * promoted by the maker posts or rejects a pending request. The subject must still be a
 * customer for it to post.
 */
export async function decideMoneyRequest(
  deps: AdminDeps,
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
  await deps.db.transaction(async (tx) => {
    const request = await lockPending(tx, requestId);
    if (request.maker_user_id === action.staff.userId) throw new AppError('own_request');
    const eligibleCheckers = await checkerRules(tx);
    if (!eligibleCheckers(request).some((admin) => admin.id === action.staff.userId)) {
      throw new AppError('not_eligible_checker');
    }
    if (decision === 'approve') await refuseStaffSubject(tx, request.user_id);
    const entryId =
      decision === 'approve'
        ? await postRequest(deps, tx, request, settlementId, action.staff.userId)
        : null;
    await closeRequest(tx, request, {
      status: decision === 'approve' ? 'posted' : 'rejected',
      checkerUserId: action.staff.userId,
      entryId,
      action,
    });
  });
  return moneyRequestById(deps, requestId);
}

/** The maker withdraws her own request while it is still pending. */
export async function cancelMoneyRequest(
  deps: AdminDeps,
  requestId: string,
  action: StaffAction,
): Promise<MoneyRequest> {
  await deps.db.transaction(async (tx) => {
    const request = await lockPending(tx, requestId);
    if (request.maker_user_id !== action.staff.userId) throw new AppError('not_maker');
    await closeRequest(tx, request, {
      status: 'cancelled',
      checkerUserId: null,
      entryId: null,
      action,
    });
  });
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

async function moneyRequestById(deps: AdminDeps, requestId: string): Promise<MoneyRequest> {
  const found = await findRequest(deps.db, requestId);
  if (!found) throw new AppError('not_found');
  return toMoneyRequest(found, await checkerRules(deps.db));
}

const queueLengthMax = 200;

/** Oldest first: the work queue of requests waiting for a second admin. */
export async function pendingMoneyRequests(deps: AdminDeps): Promise<MoneyRequest[]> {
  const rows = await pendingRequests(deps.db, queueLengthMax);
  const eligibleCheckers = await checkerRules(deps.db);
  return rows.map((row) => toMoneyRequest(row, eligibleCheckers));
}

export async function moneyRequestsOf(deps: AdminDeps, userId: string): Promise<MoneyRequest[]> {
  const rows = await requestsOfUser(deps.db, userId, queueLengthMax);
  const eligibleCheckers = await checkerRules(deps.db);
  return rows.map((row) => toMoneyRequest(row, eligibleCheckers));
}
