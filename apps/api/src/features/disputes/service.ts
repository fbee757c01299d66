import { randomInt } from 'node:crypto';
import { toCurrencyCode } from '@coffer/contracts/currencies';
import {
  type Dispute,
  type DisputeStatus,
  type DisputeTransaction,
  disputeRefundBound,
  type StaffDispute,
} from '@coffer/contracts/disputes';
import { type DisputeBody, disputeKindOfEntryText } from '@coffer/contracts/disputes-filing';
import { formatMoney, minorUnits } from '@coffer/contracts/money';
import type { ApprovalCallbacks } from '../../approvals/approvals.ts';
import type { Config } from '../../config.ts';
import { requireCustomer } from '../../customers/customers.ts';
import { freezeUser } from '../../customers/queries.ts';
import type { Database, Queryable } from '../../db/client.ts';
import type { Ledger } from '../../ledger/ledger.ts';
import type { StaffAction } from '../../platform/access.ts';
import { positiveAmountOrRefuse } from '../../platform/amounts.ts';
import { AppError } from '../../platform/app-error.ts';
import { assert } from '../../platform/assert.ts';
import { recordAudit } from '../../platform/audit.ts';
import { publishEvent } from '../../platform/events.ts';
import { newId } from '../../platform/ids.ts';
import { notify } from '../../platform/notifications.ts';
import type { SessionContext } from '../../platform/sessions.ts';
import { freezeCardOfPurchase, syncIssuerFreeze } from '../cards/lifecycle.ts';
import type { CardDeps } from '../cards/shared.ts';
import { createMoneyRequest, type MoneyRequestTarget } from '../deposits/service.ts';
import {
  claimDisputedTransaction,
  type DisputeRow,
  disputesOfUser,
  findDispute,
  insertDispute,
  type LinkedTransactionRow,
  openDisputes,
  ownTransaction,
  recentTransactionsOf,
  recordDisputeStep,
  toDispute,
  toStaffDispute,
  transferRecipientNumber,
} from './queries.ts';

export type DisputeDeps = { db: Database; ledger: Ledger; config: Config; cards: CardDeps };

const listLengthMax = 200;
const referenceAlphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const referenceLength = 9;
/** 36^9 references: a collision is rare, a few in a row would be a broken generator. */
const referenceTriesMax = 5;

/** REF- and nine characters A–Z0–9, each drawn from the system's CSPRNG. */
export function newDisputeReference(): string {
  let reference = 'REF-';
  for (let index = 0; index < referenceLength; index += 1) {
    reference += referenceAlphabet[randomInt(referenceAlphabet.length)];
  }
  return reference;
}

/** Only an unauthorized transaction offers the account's freeze; asking otherwise is a mistake. */
function checkFreezeRequest(body: DisputeBody): void {
  if (
    'freezeAccount' in body &&
    body.freezeAccount &&
    body.problemType !== 'unauthorized_transaction'
  ) {
    throw new AppError('validation_failed', {
      fields: { freezeAccount: 'Only an unauthorized transaction can freeze the account' },
    });
  }
}

type TransactionDisputeBody = Exclude<DisputeBody, { kind: 'general' }>;

/**
 * The customer's transaction a dispute is about, when the body fits it: theirs (anyone
 * else's answers 404 like a missing one), of the kind the form asked for, not disputed yet,
 * and no more disputed than it moved.
 */
async function disputedTransactionOrRefuse(
  deps: DisputeDeps,
  userId: string,
  body: TransactionDisputeBody,
  amountMinor: bigint,
): Promise<LinkedTransactionRow> {
  const transaction = await ownTransaction(deps.db, body.entryId, userId);
  if (!transaction) {
    throw new AppError('not_found', {
      message: 'That transaction is not one of yours.',
      fields: { entryId: 'Choose a transaction from the list' },
    });
  }
  if (transaction.dispute_reference) throw alreadyDisputed(transaction.dispute_reference);
  if (disputeKindOfEntryText(transaction.kind) !== body.kind) {
    throw new AppError('validation_failed', {
      message: 'That transaction is not of the kind you chose: choose it again.',
      fields: { kind: 'Does not match the transaction' },
    });
  }
  const sizeMinor =
    transaction.amount_minor < 0n ? -transaction.amount_minor : transaction.amount_minor;
  if (amountMinor > sizeMinor) {
    const size = formatMoney({
      amountMinor: sizeMinor,
      currency: toCurrencyCode(transaction.currency),
    });
    throw new AppError('validation_failed', {
      fields: { amount: `At most the transaction's ${size}` },
    });
  }
  return transaction;
}

function alreadyDisputed(reference: string): AppError {
  return new AppError('state_conflict', {
    message: `You already disputed this transaction: ${reference}. Follow it below, or quote it to support.`,
  });
}

/** Who the money went to: typed on a general dispute, the ledger's on a transfer sent. */
async function recipientOf(deps: DisputeDeps, userId: string, body: DisputeBody) {
  if (body.kind === 'general') return body.recipientAccountNumber;
  if (body.kind !== 'transfer') return null;
  return transferRecipientNumber(deps.db, body.entryId, userId);
}

/**
 * The customer's own choice after an unauthorized transaction: money out stops at once,
 * as a staff freeze would, and only staff can lift it. Audited as the customer's action.
 */
async function freezeAtCustomersRequest(tx: Queryable, userId: string, reference: string) {
  // No full stop: the frozen-account message goes on with ". Contact support …".
  const reason = `You froze your account when you reported an unauthorized transaction (${reference})`;
  if (!(await freezeUser(tx, userId, { reason, byUserId: userId }))) return;
  await recordAudit(tx, {
    action: 'account_frozen_by_customer',
    actorUserId: userId,
    subjectUserId: userId,
    before: { isFrozen: false },
    after: { isFrozen: true },
    reason,
  });
}

/**
 * Files a dispute; the answer carries the reference the customer quotes to support. A
 * dispute about a transaction is the only one about it; one about a card purchase may
 * freeze the card in the same transaction, and the issuer is told after the commit.
 */
export async function fileDispute(
  deps: DisputeDeps,
  session: SessionContext,
  body: DisputeBody,
): Promise<Dispute> {
  const wallet = session.wallet;
  if (!wallet) throw new AppError('not_found', { message: 'You have no account.' });
  checkFreezeRequest(body);
  const amountMinor = positiveAmountOrRefuse(
    body.amount,
    toCurrencyCode(wallet.currency),
    'dispute',
  );
  const entryId = body.kind === 'general' ? null : body.entryId;
  if (body.kind !== 'general') {
    await disputedTransactionOrRefuse(deps, session.userId, body, amountMinor);
  }
  const recipientAccountNumber = await recipientOf(deps, session.userId, body);
  const disputeId = newId();
  const filed = await deps.db.transaction(async (tx) => {
    const reference = await insertWithFreshReference(tx, {
      id: disputeId,
      userId: session.userId,
      amountMinor,
      currency: wallet.currency,
      recipientAccountNumber,
      problemType: body.problemType,
      description: body.description,
      entryId,
    });
    if (entryId) {
      const heldBy = await claimDisputedTransaction(tx, {
        userId: session.userId,
        entryId,
        disputeId,
      });
      if (heldBy) throw alreadyDisputed(heldBy);
    }
    await recordAudit(tx, {
      action: 'dispute_filed',
      actorUserId: session.userId,
      subjectUserId: session.userId,
      after: { reference, problemType: body.problemType, entryId },
    });
    if ('freezeAccount' in body && body.freezeAccount) {
      await freezeAtCustomersRequest(tx, session.userId, reference);
    }
    const frozenCardId =
      body.kind === 'card' && body.freezeCard && entryId
        ? await freezeCardOfPurchase(deps.cards, tx, { userId: session.userId, entryId })
        : null;
    await publishEvent(tx, { userId: session.userId, topics: ['disputes', 'customer'] });
    return { reference, frozenCardId };
  });
  if (filed.frozenCardId) await syncIssuerFreeze(deps.cards, filed.frozenCardId);
  const saved = await findDispute(deps.db, { reference: filed.reference });
  assert(saved, 'a dispute just filed is found');
  return toDispute(saved);
}

/** Inserts the dispute under a fresh REF- reference, drawing again on a rare clash. */
async function insertWithFreshReference(
  tx: Queryable,
  dispute: Omit<Parameters<typeof insertDispute>[1], 'reference'>,
): Promise<string> {
  for (let attempt = 0; attempt < referenceTriesMax; attempt += 1) {
    const candidate = newDisputeReference();
    if (await insertDispute(tx, { ...dispute, reference: candidate })) return candidate;
  }
  assert(false, 'a fresh dispute reference within a few tries');
}

/** How many recent transactions the dispute form offers to link. */
const pickerLengthMax = 50;

export async function disputableTransactions(
  deps: DisputeDeps,
  userId: string,
): Promise<DisputeTransaction[]> {
  const rows = await recentTransactionsOf(deps.db, userId, pickerLengthMax);
  return rows.map(toDisputeTransaction);
}

function toDisputeTransaction(row: LinkedTransactionRow): DisputeTransaction {
  return {
    id: row.id,
    kind: row.kind,
    amountMinor: minorUnits(row.amount_minor),
    currency: row.currency,
    createdAt: row.created_at.toISOString(),
    disputeReference: row.dispute_reference,
  };
}

/** One of the customer's transactions, as a row's Dispute button starts from; else 404. */
export async function disputableTransaction(
  deps: DisputeDeps,
  userId: string,
  entryId: string,
): Promise<DisputeTransaction> {
  const row = await ownTransaction(deps.db, entryId, userId);
  if (!row) throw new AppError('not_found');
  return toDisputeTransaction(row);
}

export async function customerDisputes(deps: DisputeDeps, userId: string): Promise<Dispute[]> {
  return (await disputesOfUser(deps.db, userId, listLengthMax)).map(toDispute);
}

/** A customer's own dispute; anyone else's answers 404. */
export async function customerDispute(
  deps: DisputeDeps,
  userId: string,
  disputeId: string,
): Promise<Dispute> {
  const found = await findDispute(deps.db, { id: disputeId });
  if (!found || found.user_id !== userId) throw new AppError('not_found');
  return toDispute(found);
}

async function withLinkedTransaction(deps: DisputeDeps, row: DisputeRow): Promise<StaffDispute> {
  const linked = row.entry_id ? await ownTransaction(deps.db, row.entry_id, row.user_id) : null;
  return toStaffDispute(row, linked);
}

export async function disputeQueue(deps: DisputeDeps): Promise<StaffDispute[]> {
  const rows = await openDisputes(deps.db, listLengthMax);
  return Promise.all(rows.map((row) => withLinkedTransaction(deps, row)));
}

export async function staffDisputesOf(deps: DisputeDeps, userId: string): Promise<StaffDispute[]> {
  await requireCustomer(deps, userId);
  const rows = await disputesOfUser(deps.db, userId, listLengthMax);
  return Promise.all(rows.map((row) => withLinkedTransaction(deps, row)));
}

export async function staffDispute(
  deps: DisputeDeps,
  by: { id: string } | { reference: string },
): Promise<StaffDispute> {
  const found = await findDispute(deps.db, by);
  if (!found) throw new AppError('not_found');
  return withLinkedTransaction(deps, found);
}

const nextStatuses: Record<DisputeStatus, readonly DisputeStatus[]> = {
  pending: ['investigating', 'resolved', 'rejected'],
  investigating: ['resolved', 'rejected'],
  resolved: [],
  rejected: [],
};

const auditActionOf = {
  investigating: 'dispute_investigating',
  resolved: 'dispute_resolved',
  rejected: 'dispute_rejected',
} as const;

/**
 * A refund above its bound (`disputeRefundBound`) is not refused: a fee charged beside the
 * linked line, or a loss the customer shows, can make it right, and a refusal would only
 * send staff to an unlinked deposit. It always waits for a second admin instead. Returns
 * what the approver reads in the request's reason, or null within the bound.
 */
function refundAboveBound(
  dispute: DisputeRow,
  linked: LinkedTransactionRow | null,
  refundMinor: bigint,
): string | null {
  const bound = disputeRefundBound(
    { amountMinor: dispute.amount_minor, currency: dispute.currency },
    linked && { amountMinor: linked.amount_minor, currency: linked.currency },
  );
  if (refundMinor <= bound.amountMinor) return null;
  const currency = toCurrencyCode(dispute.currency);
  return `refund above ${bound.basis} (${formatMoney({ amountMinor: bound.amountMinor, currency })})`;
}

export type DisputeStep = {
  status: Exclude<DisputeStatus, 'pending'>;
  note: string | null;
  /** A resolution's refund: the money request's target and amount as typed. */
  refund?: { target: MoneyRequestTarget; amount: string };
};

/** The refund as a staff deposit, waiting for a second admin when above its bound. */
async function requestRefund(
  deps: DisputeDeps,
  tx: Queryable,
  dispute: DisputeRow,
  refund: NonNullable<DisputeStep['refund']>,
  action: StaffAction,
) {
  const refundMinor = positiveAmountOrRefuse(
    refund.amount,
    toCurrencyCode(dispute.currency),
    'moneyRequest',
  );
  const linked = dispute.entry_id
    ? await ownTransaction(tx, dispute.entry_id, dispute.user_id)
    : null;
  const aboveBound = refundAboveBound(dispute, linked, refundMinor);
  const reason = `Refund for dispute ${dispute.reference}`;
  return createMoneyRequest(
    deps,
    tx,
    refund.target,
    'deposit',
    { amount: refund.amount, externalReference: dispute.reference },
    { ...action, reason: aboveBound ? `${reason}: ${aboveBound}` : reason },
    { isApprovalRequired: aboveBound !== null },
  );
}

/**
 * Staff move a dispute on: investigating, resolved (maybe with a refund) or rejected.
 * A refund is a staff deposit from settlement (the deposits feature's money request),
 * under the same approval rule, linked to the dispute; above what was disputed it always
 * waits for a second admin (`refundAboveBound`), and support's always do. A refund that
 * waits leaves the dispute being investigated until it is decided
 * (`followRefundDecisions`), and nothing else moves the dispute meanwhile. Staff never
 * decide their own dispute. The customer sees the status and note, and is told, in the
 * same transaction.
 */
export async function moveDispute(
  deps: DisputeDeps,
  tx: Queryable,
  disputeId: string,
  step: DisputeStep,
  action: StaffAction,
): Promise<StaffDispute> {
  const dispute = await findDispute(tx, { id: disputeId }, { isLocked: true });
  if (!dispute) throw new AppError('not_found');
  if (dispute.user_id === action.staff.userId) throw new AppError('own_account');
  if (!nextStatuses[dispute.status].includes(step.status)) throw new AppError('state_conflict');
  if (dispute.refund_status === 'pending_approval') {
    throw new AppError('state_conflict', {
      message: 'A refund on this dispute waits for an admin: it is decided first.',
    });
  }
  const refund = step.refund ? await requestRefund(deps, tx, dispute, step.refund, action) : null;
  const isRefundWaiting = refund?.status === 'pending_approval';
  const status = isRefundWaiting ? 'investigating' : step.status;
  await recordDisputeStep(tx, {
    disputeId,
    status,
    note: step.note,
    decidedByUserId: action.staff.userId,
    refundRequestId: refund?.id ?? null,
  });
  await recordAudit(tx, {
    action: auditActionOf[status],
    actorUserId: action.staff.userId,
    subjectUserId: dispute.user_id,
    before: { status: dispute.status },
    after: { status, reference: dispute.reference, refundRequestId: refund?.id },
    reason: step.note,
    ipAddress: action.ipAddress,
  });
  // The note is the resolution's: a customer whose refund waits reads it once it is paid.
  const refundAmount = isRefundWaiting
    ? formatMoney({
        amountMinor: BigInt(refund.amountMinor),
        currency: toCurrencyCode(refund.currency),
      })
    : null;
  await tellCustomer(
    deps,
    tx,
    dispute,
    disputeStepMessage(dispute.reference, status, step.note ?? null, refundAmount),
  );
  const moved = await findDispute(tx, { id: disputeId });
  assert(moved, 'a dispute just moved is found');
  const linked = moved.entry_id ? await ownTransaction(tx, moved.entry_id, moved.user_id) : null;
  return toStaffDispute(moved, linked);
}

/**
 * What the customer is told of a staff step on their dispute: one whole message per case,
 * so each is translated whole (ADR 055); a note is staff's own words and stays as written.
 */
function disputeStepMessage(
  reference: string,
  status: Exclude<DisputeStatus, 'pending'>,
  note: string | null,
  refundAmount: string | null,
): string {
  if (refundAmount !== null) {
    return `Your dispute ${reference} is being investigated. A refund of ${refundAmount} waits for approval.`;
  }
  if (status === 'investigating') {
    return note
      ? `Your dispute ${reference} is being investigated. ${note}`
      : `Your dispute ${reference} is being investigated.`;
  }
  if (status === 'resolved') {
    return note
      ? `Your dispute ${reference} is resolved. ${note}`
      : `Your dispute ${reference} is resolved.`;
  }
  return note
    ? `Your dispute ${reference} is rejected. ${note}`
    : `Your dispute ${reference} is rejected.`;
}

/** What the customer is told when an admin decides the refund their dispute waited for. */
function refundDecisionMessage(
  reference: string,
  isRefunded: boolean,
  note: string | null,
): string {
  if (!isRefunded) {
    return `Your dispute ${reference} is still being investigated: the refund was not approved.`;
  }
  return note
    ? `Your dispute ${reference} is resolved: the refund is in your account. ${note}`
    : `Your dispute ${reference} is resolved: the refund is in your account.`;
}

async function tellCustomer(
  deps: DisputeDeps,
  tx: Queryable,
  dispute: DisputeRow,
  text: string,
): Promise<void> {
  await notify(
    tx,
    { userId: dispute.user_id, kind: 'dispute_updated', text, link: '/dispute' },
    deps.config,
  );
  await publishEvent(tx, { userId: dispute.user_id, topics: ['disputes'] });
}

/**
 * A dispute whose refund waited is resolved when an admin approves the refund, in the
 * same transaction; when the refund is rejected or withdrawn it stays being investigated,
 * for staff to decide again. Other money requests are no dispute's.
 */
export function followRefundDecisions(
  deps: DisputeDeps,
): ApprovalCallbacks<'money_request'>['onDecided'] {
  return async (tx, { id, decision, action }) => {
    const dispute = await findDispute(tx, { refundRequestId: id }, { isLocked: true });
    if (!dispute) return;
    const isRefunded = decision === 'approve';
    if (isRefunded) {
      await recordDisputeStep(tx, {
        disputeId: dispute.id,
        status: 'resolved',
        note: null,
        decidedByUserId: action.staff.userId,
        refundRequestId: null,
      });
      await recordAudit(tx, {
        action: 'dispute_resolved',
        actorUserId: action.staff.userId,
        subjectUserId: dispute.user_id,
        before: { status: dispute.status },
        after: { status: 'resolved', reference: dispute.reference, refundRequestId: id },
        reason: action.reason || null,
        ipAddress: action.ipAddress,
      });
    }
    await tellCustomer(
      deps,
      tx,
      dispute,
      refundDecisionMessage(dispute.reference, isRefunded, dispute.resolution_note || null),
    );
  };
}
