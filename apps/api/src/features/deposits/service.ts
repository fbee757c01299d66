import type { MoneyRequest } from '@coffer/contracts/admin';
import { toCurrencyCode } from '@coffer/contracts/currencies';
import { memoLengthMax } from '@coffer/contracts/ledger';
import { formatMoney, MoneyParseError, parseAmount } from '@coffer/contracts/money';
import type { Queryable } from '../../db/client.ts';
import type { AccountId, PostingLine } from '../../ledger/ledger.ts';
import type { StaffAction } from '../../platform/access.ts';
import { AppError } from '../../platform/app-error.ts';
import { recordAudit } from '../../platform/audit.ts';
import { publishEvent } from '../../platform/events.ts';
import { newId } from '../../platform/ids.ts';
import { notify } from '../../platform/notifications.ts';
import { type AdminDeps, requireCustomer, walletIdOf } from '../admin/service.ts';

export type MoneyRequestDirection = 'deposit' | 'debit_adjustment';

type MoneyRequestRow = {
  id: string;
  user_id: string;
  username: string;
  account_id: AccountId;
  direction: MoneyRequestDirection;
  amount_minor: bigint;
  currency: string;
  external_reference: string | null;
  reason: string;
  status: 'pending_approval' | 'posted' | 'rejected';
  maker_user_id: string;
  maker_username: string;
  checker_user_id: string | null;
  checker_username: string | null;
  decision_reason: string | null;
  created_at: Date;
  decided_at: Date | null;
};

const selectRequests = `
  SELECT r.*, u.username, maker.username AS maker_username, checker.username AS checker_username
    FROM money_requests r
    JOIN users u ON u.id = r.user_id
    JOIN users maker ON maker.id = r.maker_user_id
    LEFT JOIN users checker ON checker.id = r.checker_user_id`;

function toMoneyRequest(row: MoneyRequestRow): MoneyRequest {
  return {
    id: row.id,
    userId: row.user_id,
    username: row.username,
    direction: row.direction,
    amountMinor: row.amount_minor.toString(),
    currency: row.currency,
    externalReference: row.external_reference,
    reason: row.reason,
    status: row.status,
    maker: { id: row.maker_user_id, username: row.maker_username },
    checker:
      row.checker_user_id && row.checker_username
        ? { id: row.checker_user_id, username: row.checker_username }
        : null,
    decisionReason: row.decision_reason,
    createdAt: row.created_at.toISOString(),
    decidedAt: row.decided_at?.toISOString() ?? null,
  };
}

async function findRequest(db: Queryable, requestId: string, options: { isLocked?: boolean } = {}) {
  const found = await db.query<MoneyRequestRow>(
    `${selectRequests} WHERE r.id = $1${options.isLocked ? ' FOR UPDATE OF r' : ''}`,
    [requestId],
  );
  return found.rows[0] ?? null;
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
  await requireCustomer(deps, userId);
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
 * four-eyes threshold posts at once; above it, or prepared by support, it waits for a
 * second admin. The audit event commits with it.
 */
export async function createMoneyRequest(
  deps: AdminDeps,
  tx: Queryable,
  target: MoneyRequestTarget,
  direction: MoneyRequestDirection,
  body: { amount: string; externalReference?: string | undefined },
  action: StaffAction,
): Promise<MoneyRequest> {
  const { userId, walletId } = target;
  const balance = await deps.ledger.balance(walletId, tx);
  let amountMinor: bigint;
  try {
    amountMinor = parseAmount(body.amount, balance.currency);
  } catch (error) {
    if (!(error instanceof MoneyParseError)) throw error;
    throw new AppError('validation_failed', {
      message: 'Please enter a valid amount',
      fields: { amount: error.message },
    });
  }
  if (amountMinor <= 0n) {
    throw new AppError('validation_failed', {
      message: 'Please enter a valid amount',
      fields: { amount: 'Please enter a valid amount' },
    });
  }
  if (direction === 'debit_adjustment' && balance.availableMinor < amountMinor) {
    throw new AppError('insufficient_funds', { message: 'Insufficient funds' });
  }
  // A currency without limits has no threshold: every posting in it waits for a second admin.
  const fourEyesThresholdMinor =
    deps.config.limits.limitsFor(toCurrencyCode(balance.currency))?.fourEyesThresholdMinor ?? 0n;
  const needsSecondAdmin = action.staff.role !== 'admin' || amountMinor > fourEyesThresholdMinor;
  const requestId = newId();
  await tx.query(
    `INSERT INTO money_requests (id, user_id, account_id, direction, amount_minor, currency,
                                 external_reference, reason, status, maker_user_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending_approval', $9)`,
    [
      requestId,
      userId,
      walletId,
      direction,
      amountMinor,
      balance.currency,
      body.externalReference ?? null,
      action.reason,
      action.staff.userId,
    ],
  );
  const request = await findRequest(tx, requestId);
  if (!request) throw new Error('a request just inserted is found');
  if (!needsSecondAdmin) {
    const entryId = await postRequest(deps, tx, request, target.settlementId, action.staff.userId);
    await tx.query(
      `UPDATE money_requests SET status = 'posted', entry_id = $2, decided_at = now() WHERE id = $1`,
      [requestId, entryId],
    );
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
  return toMoneyRequest(saved);
}

/** The second pair of eyes: a different admin posts or rejects a pending request. */
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
    const request = await findRequest(tx, requestId, { isLocked: true });
    if (!request) throw new AppError('not_found');
    if (request.status !== 'pending_approval') throw new AppError('state_conflict');
    if (request.maker_user_id === action.staff.userId) throw new AppError('own_request');
    const entryId =
      decision === 'approve'
        ? await postRequest(deps, tx, request, settlementId, action.staff.userId)
        : null;
    await publishEvent(tx, {
      userId: request.user_id,
      topics: entryId ? ['wallet', 'money-requests'] : ['money-requests'],
    });
    await tx.query(
      `UPDATE money_requests SET status = $2, checker_user_id = $3, decision_reason = $4,
              decided_at = now(), entry_id = $5 WHERE id = $1`,
      [
        requestId,
        decision === 'approve' ? 'posted' : 'rejected',
        action.staff.userId,
        action.reason || null,
        entryId,
      ],
    );
    await recordAudit(tx, {
      action: decision === 'approve' ? 'money_request_approved' : 'money_request_rejected',
      actorUserId: action.staff.userId,
      subjectUserId: request.user_id,
      before: { status: 'pending_approval', makerUserId: request.maker_user_id },
      after: {
        status: decision === 'approve' ? 'posted' : 'rejected',
        amountMinor: request.amount_minor.toString(),
        currency: request.currency,
      },
      reason: action.reason || null,
      ipAddress: action.ipAddress,
    });
  });
  const decided = await findRequest(deps.db, requestId);
  if (!decided) throw new AppError('not_found');
  return toMoneyRequest(decided);
}

const queueLengthMax = 200;

/** Oldest first: the work queue of requests waiting for a second admin. */
export async function pendingMoneyRequests(deps: AdminDeps): Promise<MoneyRequest[]> {
  const found = await deps.db.query<MoneyRequestRow>(
    `${selectRequests} WHERE r.status = 'pending_approval' ORDER BY r.created_at ASC LIMIT $1`,
    [queueLengthMax],
  );
  return found.rows.map(toMoneyRequest);
}

export async function moneyRequestsOf(deps: AdminDeps, userId: string): Promise<MoneyRequest[]> {
  const found = await deps.db.query<MoneyRequestRow>(
    `${selectRequests} WHERE r.user_id = $1 ORDER BY r.created_at DESC LIMIT $2`,
    [userId, queueLengthMax],
  );
  return found.rows.map(toMoneyRequest);
}
