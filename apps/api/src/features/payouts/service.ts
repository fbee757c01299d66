import { type CurrencyCode, toCurrencyCode } from '@coffer/contracts/currencies';
import type { CurrencyLimits } from '@coffer/contracts/limits';
import { formatMoney, minorUnits, toDecimalString } from '@coffer/contracts/money';
import {
  describePayoutDestination,
  type Payout,
  type PayoutDestination,
  type PayoutDestinationBody,
  type PayoutTerms,
  type StaffPayout,
} from '@coffer/contracts/payouts';
import type { Config } from '../../config.ts';
import { refuseOwnAccount, requireCustomer } from '../../customers/customers.ts';
import type { Database, Queryable } from '../../db/client.ts';
import type { AccountId, Ledger, PostingLine } from '../../ledger/ledger.ts';
import { findOwnWallet } from '../../ledger/wallets.ts';
import {
  limitsOrRefuse,
  lockMoneyOut,
  precheckMoneyOut,
  uncountMoneyOut,
} from '../../money-out/money-out.ts';
import type { PaymentToConfirm } from '../../money-out/step-up-prechecks.ts';
import { type StepUpProof, spendStepUp } from '../../money-out/step-up-spend.ts';
import type { StaffAction } from '../../platform/access.ts';
import { positiveAmountOrRefuse } from '../../platform/amounts.ts';
import { AppError } from '../../platform/app-error.ts';
import { assert } from '../../platform/assert.ts';
import { recordAudit } from '../../platform/audit.ts';
import { publishEvent } from '../../platform/events.ts';
import { newId } from '../../platform/ids.ts';
import { notify } from '../../platform/notifications.ts';
import {
  findPayout,
  insertPayout,
  type PayoutRow,
  payoutsOfUser,
  pendingPayouts,
  recordDecision,
  toPayout,
  toStaffPayout,
} from './queries.ts';

export type PayoutDeps = { db: Database; ledger: Ledger; config: Config };

/** Staff lists show at most this many payouts; the queue is worked oldest first. */
const staffListLengthMax = 200;

/** PRODUCT.md section 5: no fee unless the operator's schedule names the currency. */
function payoutFeeMinor(config: Config, currency: CurrencyCode): bigint {
  return config.payoutFeeMinorByCurrency.get(currency) ?? 0n;
}

/** The wallet the customer chose, if it is theirs (another's is not found), or their main one. */
async function walletOf(
  deps: PayoutDeps,
  userId: string,
  chosenWalletId: string | undefined,
): Promise<{ walletId: AccountId; currency: CurrencyCode }> {
  const wallet = await findOwnWallet(deps.db, userId, chosenWalletId);
  if (!wallet) throw new AppError('not_found', { message: 'You have no such wallet.' });
  return { walletId: wallet.id, currency: wallet.currency };
}

/** What the withdraw form shows up front: the wallet's available balance and the fee. */
export async function payoutTerms(
  deps: PayoutDeps,
  userId: string,
  chosenWalletId?: string,
): Promise<PayoutTerms> {
  const { walletId, currency } = await walletOf(deps, userId, chosenWalletId);
  const balance = await deps.ledger.balance(walletId);
  return {
    currency,
    availableMinor: minorUnits(balance.availableMinor),
    feeMinor: minorUnits(payoutFeeMinor(deps.config, currency)),
  };
}

export type PayoutSource = {
  userId: string;
  walletId: AccountId;
  currency: CurrencyCode;
  limits: CurrencyLimits;
  amountMinor: bigint;
  feeMinor: bigint;
};

/** The wallet, the amount in its currency and the fee, before the transaction opens. */
async function payoutSource(
  deps: PayoutDeps,
  userId: string,
  amountText: string,
  chosenWalletId: string | undefined,
): Promise<PayoutSource> {
  const { walletId, currency } = await walletOf(deps, userId, chosenWalletId);
  const amountMinor = positiveAmountOrRefuse(amountText, currency, 'payout');
  return {
    userId,
    walletId,
    currency,
    limits: limitsOrRefuse(deps.config.limits, currency),
    amountMinor,
    feeMinor: payoutFeeMinor(deps.config, currency),
  };
}

/**
 * Everything that can refuse this withdrawal without a step-up code (`precheckMoneyOut`:
 * frozen, verified, level, daily limit, balance with the fee), before a code is sent or
 * checked; `requestPayout` checks it all again under the lock.
 */
export async function precheckPayout(
  deps: PayoutDeps,
  userId: string,
  amountText: string,
  chosenWalletId?: string,
): Promise<PayoutSource> {
  const source = await payoutSource(deps, userId, amountText, chosenWalletId);
  await precheckMoneyOut(deps, { ...source, kind: 'payout' });
  return source;
}

/**
 * What decides where a withdrawal's money goes: the account, address or handle. The bank
 * name and holder name describe it; a code stays good if only they are retyped.
 */
export function payeeKeyOf(destination: PayoutDestinationBody): string {
  switch (destination.method) {
    case 'bank':
      return `bank:${destination.accountNumber}`;
    case 'paypal':
      return `paypal:${destination.email.toLowerCase()}`;
    case 'cashapp':
      return `cashapp:${destination.emailOrCashtag.toLowerCase()}`;
    case 'crypto':
      return `crypto:${destination.coin}:${destination.address}`;
  }
}

/** The withdrawal a step-up code confirms: its amount and destination. */
export function payoutToConfirm(
  source: Pick<PayoutSource, 'amountMinor' | 'currency'>,
  destination: PayoutDestinationBody,
): PaymentToConfirm {
  return {
    amountMinor: source.amountMinor,
    currency: source.currency,
    payee: describePayoutDestination(destination),
    payeeKey: payeeKeyOf(destination),
  };
}

/**
 * A customer's withdrawal, in the transaction of the idempotent request: the money-out
 * checks under the wallet lock (frozen, verified, level, daily limit), then the hold of
 * amount plus fee, which the ledger refuses when the available balance is short. The
 * step-up code is spent last, so it stays usable when the payout is refused.
 */
export async function requestPayout(
  deps: PayoutDeps,
  tx: Queryable,
  // Null for a scheduled withdrawal to a saved payee (ADR 045): the payee was confirmed
  // with a code when it was saved; a typed withdrawal always brings one.
  request: PayoutSource & { destination: PayoutDestination; proof: StepUpProof | null },
): Promise<Payout> {
  const sender = await lockMoneyOut(tx, {
    userId: request.userId,
    walletId: request.walletId,
    kind: 'payout',
    amountMinor: request.amountMinor,
    currency: request.currency,
    limits: request.limits,
  });
  assert(sender.walletId === request.walletId, 'the payout leaves the wallet it was priced in');
  const payoutId = newId();
  const holdId = await deps.ledger.hold(
    {
      accountId: request.walletId,
      amountMinor: request.amountMinor + request.feeMinor,
      reason: `Withdrawal to ${describePayoutDestination(request.destination)}`,
    },
    tx,
  );
  if (request.proof) await spendStepUp(tx, request.proof);
  await insertPayout(tx, {
    id: payoutId,
    userId: request.userId,
    accountId: request.walletId,
    holdId,
    amountMinor: request.amountMinor,
    feeMinor: request.feeMinor,
    currency: request.currency,
    destination: request.destination,
  });
  await notify(
    tx,
    {
      userId: request.userId,
      kind: 'payout_requested',
      text: `Your withdrawal of ${formatMoney({ amountMinor: request.amountMinor, currency: request.currency })} to ${describePayoutDestination(request.destination)} is waiting for staff to send it.`,
      link: '/transfer?tab=withdraw',
    },
    deps.config,
  );
  await publishEvent(tx, { userId: request.userId, topics: ['payouts', 'wallet'] });
  const saved = await findPayout(tx, payoutId);
  assert(saved, 'a payout just inserted is found');
  return toPayout(saved);
}

export async function customerPayouts(
  deps: PayoutDeps,
  userId: string,
  page: { cursor?: string | undefined; limit: number },
): Promise<{ items: Payout[]; nextCursor: string | null }> {
  // One row more than the page shows tells whether there is a next page.
  const rows = await payoutsOfUser(deps.db, userId, {
    cursor: page.cursor,
    rowsMax: page.limit + 1,
  });
  const hasMore = rows.length > page.limit;
  const shown = hasMore ? rows.slice(0, page.limit) : rows;
  return { items: shown.map(toPayout), nextCursor: hasMore ? (shown.at(-1)?.id ?? null) : null };
}

export async function staffPayoutsOf(deps: PayoutDeps, userId: string): Promise<StaffPayout[]> {
  await requireCustomer(deps, userId);
  const rows = await payoutsOfUser(deps.db, userId, { rowsMax: staffListLengthMax });
  return rows.map(toStaffPayout);
}

export async function payoutQueue(deps: PayoutDeps): Promise<StaffPayout[]> {
  return (await pendingPayouts(deps.db, staffListLengthMax)).map(toStaffPayout);
}

/** The payout, locked; only a pending one can be decided. */
async function lockPendingPayout(tx: Queryable, payoutId: string): Promise<PayoutRow> {
  const payout = await findPayout(tx, payoutId, { isLocked: true });
  if (!payout) throw new AppError('not_found');
  if (payout.status !== 'pending') throw new AppError('state_conflict');
  return payout;
}

/** Wallet minus amount and fee; clearing plus the amount; fees plus the fee, if any. */
function captureLines(
  payout: PayoutRow,
  clearingId: AccountId,
  feesId: AccountId | null,
): PostingLine[] {
  const lines: PostingLine[] = [
    { accountId: payout.account_id, amountMinor: -(payout.amount_minor + payout.fee_minor) },
    { accountId: clearingId, amountMinor: payout.amount_minor },
  ];
  if (feesId) lines.push({ accountId: feesId, amountMinor: payout.fee_minor });
  return lines;
}

function captureMemo(payout: PayoutRow, externalReference: string): string {
  const destination = describePayoutDestination(toPayout(payout).destination);
  const fee =
    payout.fee_minor > 0n
      ? `, fee ${toDecimalString(payout.fee_minor, toCurrencyCode(payout.currency))} ${payout.currency}`
      : '';
  return `Withdrawal to ${destination}${fee} (ref. ${externalReference})`;
}

/** The customer hears of the decision in its transaction. */
async function notifyDecision(
  deps: PayoutDeps,
  tx: Queryable,
  payout: PayoutRow,
  decision: { isSent: boolean; reason: string },
) {
  const amount = formatMoney({
    amountMinor: payout.amount_minor,
    currency: toCurrencyCode(payout.currency),
  });
  const destination = describePayoutDestination(toPayout(payout).destination);
  await notify(
    tx,
    decision.isSent
      ? {
          userId: payout.user_id,
          kind: 'payout_sent',
          text: `Your withdrawal of ${amount} to ${destination} was sent.`,
          link: '/transfer',
        }
      : {
          userId: payout.user_id,
          kind: 'payout_rejected',
          text: `Your withdrawal of ${amount} was rejected: ${decision.reason}. The money is back in your available balance.`,
          link: '/transfer',
        },
    deps.config,
  );
}

async function decidedPayout(deps: PayoutDeps, payoutId: string): Promise<StaffPayout> {
  const decided = await findPayout(deps.db, payoutId);
  if (!decided) throw new AppError('not_found');
  return toStaffPayout(decided);
}

/** The system accounts a sent payout posts to, found before its transaction (PGlite). */
export type CaptureAccounts = { clearingId: AccountId; feesId: AccountId | null };

export async function captureAccounts(
  deps: PayoutDeps,
  currency: CurrencyCode,
  hasFee: boolean,
): Promise<CaptureAccounts> {
  return {
    clearingId: await deps.ledger.systemAccount('payout_clearing', currency),
    feesId: hasFee ? await deps.ledger.systemAccount('fees', currency) : null,
  };
}

/**
 * Marks a pending payout sent in the caller's transaction: the hold is captured into payout
 * clearing (and the fee into fees), with the audit event and the customer's live update.
 * Sending one by hand and sending a batch file (payment-files/) both come here.
 */
export async function markPayoutSent(
  deps: PayoutDeps,
  tx: Queryable,
  sent: {
    payoutId: string;
    accounts: CaptureAccounts;
    externalReference: string;
    batchId: string | null;
    action: StaffAction;
  },
): Promise<PayoutRow> {
  const { payoutId, accounts, externalReference, action } = sent;
  const payout = await lockPendingPayout(tx, payoutId);
  // A customer who became staff keeps their payouts; another person sends or rejects them.
  refuseOwnAccount(action, payout.user_id);
  assert(
    payout.fee_minor === 0n || accounts.feesId !== null,
    'a payout with a fee has a fees account to post it to',
  );
  const { entryId } = await deps.ledger.capture(
    payout.hold_id,
    {
      kind: 'payout',
      memo: captureMemo(payout, externalReference),
      actorUserId: action.staff.userId,
      lines: captureLines(payout, accounts.clearingId, accounts.feesId),
    },
    tx,
  );
  await recordDecision(tx, {
    payoutId,
    status: 'sent',
    decidedByUserId: action.staff.userId,
    reason: action.reason || null,
    externalReference,
    entryId,
    batchId: sent.batchId,
  });
  await recordAudit(tx, {
    action: 'payout_sent',
    actorUserId: action.staff.userId,
    subjectUserId: payout.user_id,
    before: { status: 'pending' },
    after: {
      status: 'sent',
      amountMinor: payout.amount_minor.toString(),
      feeMinor: payout.fee_minor.toString(),
      currency: payout.currency,
      externalReference,
    },
    reason: action.reason || null,
    ipAddress: action.ipAddress,
  });
  await notifyDecision(deps, tx, payout, { isSent: true, reason: action.reason });
  await publishEvent(tx, { userId: payout.user_id, topics: ['payouts', 'wallet'] });
  return payout;
}

/** Staff sent the money by hand, under the bank's or network's reference. */
export async function sendPayout(
  deps: PayoutDeps,
  payoutId: string,
  externalReference: string,
  action: StaffAction,
): Promise<StaffPayout> {
  // System accounts are looked up first: on PGlite nothing may use the database inside a
  // transaction but the transaction itself.
  const unlocked = await findPayout(deps.db, payoutId);
  if (!unlocked) throw new AppError('not_found');
  const accounts = await captureAccounts(
    deps,
    toCurrencyCode(unlocked.currency),
    unlocked.fee_minor > 0n,
  );
  await deps.db.transaction((tx) =>
    markPayoutSent(deps, tx, { payoutId, accounts, externalReference, batchId: null, action }),
  );
  return decidedPayout(deps, payoutId);
}

/** Staff refused the payout: the hold is released and the customer sees the reason. */
export async function rejectPayout(
  deps: PayoutDeps,
  payoutId: string,
  action: StaffAction,
): Promise<StaffPayout> {
  await deps.db.transaction(async (tx) => {
    const payout = await lockPendingPayout(tx, payoutId);
    refuseOwnAccount(action, payout.user_id);
    await deps.ledger.release(payout.hold_id, tx);
    await uncountMoneyOut(tx, {
      userId: payout.user_id,
      kind: 'payout',
      madeAt: payout.created_at,
      amountMinor: payout.amount_minor,
      currency: toCurrencyCode(payout.currency),
    });
    await recordDecision(tx, {
      payoutId,
      status: 'rejected',
      decidedByUserId: action.staff.userId,
      reason: action.reason,
      externalReference: null,
      entryId: null,
      batchId: null,
    });
    await recordAudit(tx, {
      action: 'payout_rejected',
      actorUserId: action.staff.userId,
      subjectUserId: payout.user_id,
      before: { status: 'pending' },
      after: {
        status: 'rejected',
        amountMinor: payout.amount_minor.toString(),
        feeMinor: payout.fee_minor.toString(),
        currency: payout.currency,
      },
      reason: action.reason,
      ipAddress: action.ipAddress,
    });
    await notifyDecision(deps, tx, payout, { isSent: false, reason: action.reason });
    await publishEvent(tx, { userId: payout.user_id, topics: ['payouts', 'wallet'] });
  });
  return decidedPayout(deps, payoutId);
}
