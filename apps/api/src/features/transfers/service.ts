import { type CurrencyCode, toCurrencyCode } from '@coffer/contracts/currencies';
import { accountNumberSchema } from '@coffer/contracts/ledger';
import type { CurrencyLimits } from '@coffer/contracts/limits';
import { formatMoney, minorUnits } from '@coffer/contracts/money';
import type {
  QuickPayBody,
  RecipientPreview,
  Transfer,
  TransferList,
  TransferListItem,
} from '@coffer/contracts/transfers';
import type { Database, Queryable } from '../../db/client.ts';
import { fromSqlError, type SqlRefusal } from '../../db/sql-errors.ts';
import type { Ledger } from '../../ledger/ledger.ts';
import { findOwnWallet } from '../../ledger/wallets.ts';
import {
  dailyLimitsMinorByLevel,
  describeMoneyOutRefusal,
  limitsOrRefuse,
  precheckMoneyOut,
} from '../../money-out/money-out.ts';
import type { PaymentToConfirm } from '../../money-out/step-up-prechecks.ts';
import { type StepUpProof, stepUpSpendArguments } from '../../money-out/step-up-spend.ts';
import { positiveAmountOrRefuse } from '../../platform/amounts.ts';
import { AppError } from '../../platform/app-error.ts';
import { assert } from '../../platform/assert.ts';
import {
  attemptKeyHash,
  isAttemptLeft,
  spendAttemptOrRefuse,
} from '../../platform/attempt-counters.ts';
import type { EventHub } from '../../platform/events.ts';
import type {
  ClaimRow,
  IdempotencyClaim,
  SessionStatementOutcome,
} from '../../platform/idempotency.ts';
import { newId } from '../../platform/ids.ts';
import { notifyUserParams } from '../../platform/notifications.ts';
import { failureLimits } from '../../platform/rate-limits.ts';
import type { SessionContext, SessionRow } from '../../platform/sessions.ts';
import { checkStepUp, type StepUpDeps } from '../step-up/service.ts';
import {
  callQuickPay,
  callQuickPayInSession,
  findRecipient,
  type QuickPayArguments,
  type QuickPayRow,
  type SessionLookUp,
  type TransferListRow,
  transfersOfUser,
} from './queries.ts';

export type TransferDeps = StepUpDeps & { db: Database; ledger: Ledger; events: EventHub };

const sendToSelfMessage = 'You cannot send money to yourself.';
const defaultMemo = 'Quick Pay';

/**
 * Every refused look-up answers the same (SECURITY.md, "Recipient look-ups"): nobody has
 * that number or email, their wallet is in another currency, or it is not a customer's.
 * Paying oneself is told plainly: it reveals nothing the sender does not know.
 */
function recipientRefusal(code: 'own_account' | 'recipient_refused'): AppError {
  return code === 'own_account'
    ? new AppError('own_account', { message: sendToSelfMessage })
    : new AppError('recipient_refused');
}

/** What quick_pay and the preview look a recipient up by: an account number or an email. */
export function recipientKeyOf(typed: string): {
  accountNumber: string | null;
  email: string | null;
} {
  return accountNumberSchema.safeParse(typed).success
    ? { accountNumber: typed, email: null }
    : { accountNumber: null, email: typed.toLowerCase() };
}

/** The customer the sender typed, if they can be paid from a wallet in `senderCurrency`. */
async function payableRecipient(
  deps: TransferDeps,
  sender: { userId: string; currency: string },
  typedRecipient: string,
): Promise<RecipientPreview> {
  const found = await findRecipient(deps.db, recipientKeyOf(typedRecipient));
  if (!found || found.currency !== sender.currency) throw recipientRefusal('recipient_refused');
  if (found.user_id === sender.userId) throw recipientRefusal('own_account');
  return { maskedName: found.masked_name, currency: found.currency };
}

/**
 * The wallet a Quick Pay leaves from: the one the customer chose, if it is theirs (another
 * customer's or an unknown id is not found), or their main wallet, which the session
 * carries, so the busiest path asks the database nothing more.
 */
async function senderWalletOf(
  deps: TransferDeps,
  session: SessionContext,
  walletId: string | undefined,
): Promise<{ id: string; currency: CurrencyCode }> {
  if (walletId !== undefined && walletId !== session.wallet?.id) {
    const chosen = await findOwnWallet(deps.db, session.userId, walletId);
    if (!chosen) throw new AppError('not_found', { message: 'You have no such wallet.' });
    return { id: chosen.id, currency: chosen.currency };
  }
  if (!session.wallet) {
    throw new AppError('not_found', { message: 'You have no wallet to send from.' });
  }
  return { id: session.wallet.id, currency: toCurrencyCode(session.wallet.currency) };
}

const recipientLookupSubject = (userId: string) => `customer:${userId}`;

/** Every preview spends one of the customer's recipient look-ups, found or not. */
export async function previewRecipient(
  deps: TransferDeps,
  session: SessionContext,
  typed: { recipient: string; walletId?: string | undefined },
): Promise<RecipientPreview> {
  const wallet = await senderWalletOf(deps, session, typed.walletId);
  await spendAttemptOrRefuse(
    deps.db,
    failureLimits.recipientLookup,
    recipientLookupSubject(session.userId),
  );
  return payableRecipient(
    deps,
    { userId: session.userId, currency: wallet.currency },
    typed.recipient,
  );
}

/**
 * The recipient check of a Quick Pay, under the customer's look-up limit: once it is used
 * up every look-up is refused, found or not, and each refusal spends a look-up before it
 * is told (atomically, so parallel guesses get no more answers than serial ones). A
 * found recipient spends none: a customer paying many people is not held back.
 */
export async function checkRecipientCounted(
  deps: TransferDeps,
  sender: { userId: string; currency: string },
  typedRecipient: string,
): Promise<void> {
  const subject = recipientLookupSubject(sender.userId);
  const limit = failureLimits.recipientLookup;
  if (!(await isAttemptLeft(deps.db, limit, subject))) throw new AppError('too_many_attempts');
  try {
    await payableRecipient(deps, sender, typedRecipient);
  } catch (error) {
    if (error instanceof AppError && error.code === 'recipient_refused') {
      await spendAttemptOrRefuse(deps.db, limit, subject);
    }
    throw error;
  }
}

/** A Quick Pay as typed, before any code: the amount in the wallet's currency and its limits. */
type IntendedQuickPay = {
  walletId: string;
  currency: CurrencyCode;
  limits: CurrencyLimits;
  amountMinor: bigint;
};

/**
 * The amount in the sending wallet's currency and that currency's limits, refused as
 * typed; asks the database nothing unless the customer chose a wallet other than the main.
 */
async function intendedQuickPay(
  deps: TransferDeps,
  session: SessionContext,
  typed: { amount: string; walletId?: string | undefined },
): Promise<IntendedQuickPay> {
  return intendedFrom(deps, await senderWalletOf(deps, session, typed.walletId), typed);
}

function intendedFrom(
  deps: TransferDeps,
  wallet: { id: string; currency: CurrencyCode },
  typed: { amount: string },
): IntendedQuickPay {
  const amountMinor = positiveAmountOrRefuse(typed.amount, wallet.currency, 'quickPay');
  const limits = limitsOrRefuse(deps.config.limits, wallet.currency);
  return { walletId: wallet.id, currency: wallet.currency, limits, amountMinor };
}

/**
 * Everything that can refuse this Quick Pay without a step-up code, after the amount and
 * the currency's limits: the sender's checks (`precheckMoneyOut`) and the recipient, whose
 * refusals count against the preview's limit (`checkRecipientCounted`), so Quick Pay is
 * no way around it. quick_pay makes the same checks in the same order (ADR 019).
 */
async function precheckIntended(
  deps: TransferDeps,
  userId: string,
  intended: IntendedQuickPay,
  typedRecipient: string,
): Promise<void> {
  const { walletId, currency, limits, amountMinor } = intended;
  await precheckMoneyOut(deps, {
    userId,
    walletId,
    kind: 'transfer',
    amountMinor,
    currency,
    limits,
    feeMinor: 0n,
  });
  await checkRecipientCounted(deps, { userId, currency }, typedRecipient);
}

/** The Quick Pay a step-up code confirms: its amount, to the recipient as typed. */
function quickPayToConfirm(intended: IntendedQuickPay, typedRecipient: string): PaymentToConfirm {
  const recipient = recipientKeyOf(typedRecipient);
  return {
    amountMinor: intended.amountMinor,
    currency: intended.currency,
    payee: recipient.accountNumber ?? typedRecipient,
    payeeKey: recipient.accountNumber ?? `email:${recipient.email}`,
  };
}

/**
 * Every refusal a Quick Pay can get before a step-up code is sent or checked; answers the
 * payment the code will confirm.
 */
export async function precheckQuickPay(
  deps: TransferDeps,
  session: SessionContext,
  intended: { amount: string; recipient: string; walletId?: string | undefined },
): Promise<PaymentToConfirm> {
  const quickPay = await intendedQuickPay(deps, session, intended);
  await precheckIntended(deps, session.userId, quickPay, intended.recipient);
  return quickPayToConfirm(quickPay, intended.recipient);
}

/** Everything a Quick Pay needs, read and checked before its statement runs. */
export type QuickPayPlan = {
  senderUserId: string;
  senderWalletId: string;
  currency: CurrencyCode;
  limits: CurrencyLimits;
  amountMinor: bigint;
  recipient: { accountNumber: string | null; email: string | null };
  note: string | null;
  stepUpProof: StepUpProof | null;
};

/**
 * When the amount needs a step-up code, checks everything that can refuse the payment
 * without one first (`precheckIntended`), then the code: a wrong code must use up its try
 * even though the payment is refused, and nobody types a code only to be told no.
 * Without a code, quick_pay alone makes those checks, in the same order and answering
 * the same: four round trips fewer on the busiest route (ADR 019).
 */
export async function planQuickPay(
  deps: TransferDeps,
  session: SessionContext,
  body: QuickPayBody,
): Promise<QuickPayPlan> {
  const intended = await intendedQuickPay(deps, session, body);
  const needsStepUp = intended.amountMinor >= intended.limits.stepUpThresholdMinor;
  if (needsStepUp) await precheckIntended(deps, session.userId, intended, body.recipient);
  const stepUpProof = needsStepUp
    ? await checkStepUp(
        deps,
        session.userId,
        'transfer',
        body.stepUpCode,
        quickPayToConfirm(intended, body.recipient),
        body.stepUpPasskey,
      )
    : null;
  return planOf(session.userId, intended, body, stepUpProof);
}

function planOf(
  senderUserId: string,
  intended: IntendedQuickPay,
  body: QuickPayBody,
  stepUpProof: StepUpProof | null,
): QuickPayPlan {
  return {
    senderUserId,
    senderWalletId: intended.walletId,
    currency: intended.currency,
    limits: intended.limits,
    amountMinor: intended.amountMinor,
    recipient: recipientKeyOf(body.recipient),
    note: body.note || null,
    stepUpProof,
  };
}

/**
 * The plan of a Quick Pay that needs nothing but its one statement, for the customer and
 * main wallet its session probably is (ADR 057): from that wallet, below the step-up
 * threshold, without a code. Null for any other, and for one refused as typed: those take
 * the ordinary way once the session is read, which answers them as before.
 */
export function plainQuickPayPlan(
  deps: TransferDeps,
  sender: { userId: string; wallet: { id: string; currency: string } },
  body: QuickPayBody,
): QuickPayPlan | null {
  const isFromMainWallet = body.walletId === undefined || body.walletId === sender.wallet.id;
  const hasStepUp = Boolean(body.stepUpCode) || body.stepUpPasskey !== undefined;
  if (!isFromMainWallet || hasStepUp) return null;
  let intended: IntendedQuickPay;
  try {
    const currency = toCurrencyCode(sender.wallet.currency);
    intended = intendedFrom(deps, { id: sender.wallet.id, currency }, body);
  } catch (error) {
    if (error instanceof AppError) return null;
    throw error;
  }
  if (intended.amountMinor >= intended.limits.stepUpThresholdMinor) return null;
  return planOf(sender.userId, intended, body, null);
}

/**
 * A refusal quick_pay raised, in the customer's words; anything else passes. A refused
 * recipient spends one of the sender's look-ups, as a preview does, and once none is
 * left the answer is too_many_attempts.
 */
async function toQuickPayError(
  deps: TransferDeps,
  error: unknown,
  plan: QuickPayPlan,
): Promise<unknown> {
  const { senderUserId: userId, amountMinor, currency, limits } = plan;
  const moneyOut = { userId, kind: 'transfer', amountMinor, currency, limits } as const;
  const refusal = fromSqlError(
    error,
    (raised: SqlRefusal) =>
      describeMoneyOutRefusal(raised, moneyOut) ??
      (raised.code === 'own_account' ? recipientRefusal('own_account') : undefined),
  );
  if (refusal instanceof AppError && refusal.code === 'recipient_refused') {
    await spendAttemptOrRefuse(
      deps.db,
      failureLimits.recipientLookup,
      recipientLookupSubject(userId),
    );
  }
  return refusal;
}

/** quick_pay's arguments for a plan: the same statement for a typed and a scheduled Quick Pay. */
function quickPayArguments(
  deps: TransferDeps,
  claim: IdempotencyClaim,
  plan: QuickPayPlan,
): QuickPayArguments {
  const answer: Omit<Transfer, 'entryId' | 'recipientMaskedName' | 'createdAt'> = {
    amountMinor: minorUnits(plan.amountMinor),
    currency: plan.currency,
    note: plan.note,
  };
  const amount = formatMoney({ amountMinor: plan.amountMinor, currency: plan.currency });
  const lookupLimit = failureLimits.recipientLookup;
  return {
    claim,
    entryId: newId(),
    senderUserId: plan.senderUserId,
    senderWalletId: plan.senderWalletId,
    recipient: plan.recipient,
    amountMinor: plan.amountMinor,
    currency: plan.currency,
    memo: plan.note ?? defaultMemo,
    note: plan.note,
    dailyLimitMinorByLevel: dailyLimitsMinorByLevel(plan.limits, 'transfer'),
    stepUp: stepUpSpendArguments(plan.stepUpProof),
    responseBody: answer,
    recipientLookups: {
      keyHash: attemptKeyHash(lookupLimit, recipientLookupSubject(plan.senderUserId)),
      max: lookupLimit.max,
      windowMs: lookupLimit.windowMs,
    },
    notifications: {
      toRecipient: notifyUserParams(
        {
          // Not used: the statement names the recipient, whom only quick_pay finds.
          userId: plan.senderUserId,
          kind: 'money_received',
          text: `You received ${amount} by Quick Pay.`,
          link: '/dashboard',
        },
        deps.config,
      ),
      toSender: notifyUserParams(
        {
          userId: plan.senderUserId,
          kind: 'money_sent',
          text: `You sent ${amount} by Quick Pay.`,
          link: '/transfer',
        },
        deps.config,
      ),
    },
  };
}

/** Both sides hear of a Quick Pay once it has committed. */
export function publishQuickPay(deps: TransferDeps, plan: QuickPayPlan, row: QuickPayRow): void {
  deps.events.publishCommitted(
    [plan.senderUserId, row.recipient_user_id].map((userId) => ({
      userId,
      topics: ['wallet', 'transfers', 'notifications'],
    })),
  );
  deps.mailer.kick();
}

/**
 * Moves the money in one statement (db/functions/quick_pay.sql, ADR 009): the recipient's
 * checks, the idempotency claim with its answer, the sender's checks under the wallet
 * locks, the step-up code spent, one ledger entry and the transfer's record. The ledger
 * refuses an amount above the available balance in the same statement. Once it has
 * committed, both sides hear.
 */
export async function sendQuickPay(
  deps: TransferDeps,
  claim: IdempotencyClaim,
  plan: QuickPayPlan,
): Promise<ClaimRow> {
  let row: QuickPayRow | undefined;
  try {
    row = await callQuickPay(deps.db, quickPayArguments(deps, claim, plan));
  } catch (error) {
    throw await toQuickPayError(deps, error, plan);
  }
  assert(row, 'quick_pay answers');
  if (row.is_claimed) publishQuickPay(deps, plan, row);
  return row;
}

/**
 * A plain Quick Pay (`plainQuickPayPlan`) and its request's session in one statement, one
 * transaction (ADR 057). `admit` is told the session the statement read and whether it
 * spent a request, and throws the route's refusal (nothing was paid then); a refusal of
 * the payment is its outcome, a refused recipient spending a look-up as
 * `sendQuickPay`'s does. Both sides hear once it has committed.
 */
export async function sendQuickPayInSession(
  deps: TransferDeps,
  lookUp: SessionLookUp,
  claim: IdempotencyClaim,
  plan: QuickPayPlan,
  admit: (session: SessionRow | undefined, isSpent: boolean) => Promise<void>,
): Promise<SessionStatementOutcome> {
  const row = await callQuickPayInSession(deps.db, lookUp, quickPayArguments(deps, claim, plan));
  try {
    await admit(row, row?.is_spent ?? false);
  } catch (refusal) {
    assert(!row?.is_attempted, 'a Quick Pay ran for a session its route refuses');
    throw refusal;
  }
  assert(row, 'an admitted session has its row');
  if (!row.is_attempted) return { isNotRun: true };
  if (row.refused_sql_state !== null) {
    const raised = {
      code: row.refused_sql_state,
      message: row.refused_message,
      hint: row.refused_hint,
      detail: row.refused_detail,
    };
    return { refusal: await toQuickPayError(deps, raised, plan) };
  }
  assert(row.is_claimed !== null && row.recipient_user_id !== null, 'quick_pay answers');
  const claimRow: QuickPayRow = {
    is_claimed: row.is_claimed,
    request_hash: row.request_hash ?? '',
    response_status: row.response_status ?? 0,
    response_body: row.response_body,
    recipient_user_id: row.recipient_user_id,
  };
  if (claimRow.is_claimed) publishQuickPay(deps, plan, claimRow);
  return { row: claimRow };
}

/**
 * A Quick Pay the customer scheduled (features/scheduled-payments), by the same statement
 * and checks, inside the caller's transaction (which also marks the occurrence paid, so
 * both commit or neither does). A refusal raises an AppError in the customer's words and
 * spends none of their recipient look-ups: the recipient is a payee they saved, not one
 * being guessed. The caller publishes (`publishQuickPay`) after its commit.
 */
export async function sendScheduledQuickPay(
  deps: TransferDeps,
  tx: Queryable,
  claim: IdempotencyClaim,
  plan: QuickPayPlan,
): Promise<QuickPayRow> {
  const { senderUserId: userId, amountMinor, currency, limits } = plan;
  const moneyOut = { userId, kind: 'transfer', amountMinor, currency, limits } as const;
  let row: QuickPayRow | undefined;
  try {
    row = await callQuickPay(tx, quickPayArguments(deps, claim, plan));
  } catch (error) {
    throw fromSqlError(
      error,
      (raised: SqlRefusal) =>
        describeMoneyOutRefusal(raised, moneyOut) ??
        (raised.code === 'own_account' ? recipientRefusal('own_account') : undefined),
    );
  }
  assert(row, 'quick_pay answers');
  return row;
}

function toListItem(row: TransferListRow): TransferListItem {
  return {
    entryId: row.entry_id,
    direction: row.is_sent ? 'sent' : 'received',
    counterpartyMaskedName: row.counterparty_masked_name,
    amountMinor: minorUnits(row.amount_minor),
    currency: row.currency,
    note: row.note,
    createdAt: row.created_at.toISOString(),
  };
}

export async function transfersOf(
  deps: TransferDeps,
  userId: string,
  page: { cursor?: string | undefined; limit: number },
): Promise<TransferList> {
  const rows = await transfersOfUser(deps.db, userId, { ...page, limit: page.limit + 1 });
  const hasMore = rows.length > page.limit;
  const items = rows.slice(0, page.limit).map(toListItem);
  return { items, nextCursor: hasMore ? (items.at(-1)?.entryId ?? null) : null };
}
