import type { BillPaymentBody } from '@coffer/contracts/bills';
import { toCurrencyCode } from '@coffer/contracts/currencies';
import { formatMoney } from '@coffer/contracts/money';
import type { PayoutDestination } from '@coffer/contracts/payout-destinations';
import { payeeSchema } from '@coffer/contracts/saved-payees';
import { daysBetween, nextDateAfter } from '@coffer/contracts/schedule-dates';
import { customerTimeZone, todayIn } from '@coffer/contracts/time-zones';
import type { Queryable } from '../../db/client.ts';
import { findCustomerWallet } from '../../ledger/wallets.ts';
import { limitsOrRefuse } from '../../money-out/money-out.ts';
import { AppError } from '../../platform/app-error.ts';
import { publishEvent } from '../../platform/events.ts';
import { hashRequest, type IdempotencyClaim } from '../../platform/idempotency.ts';
import { notify } from '../../platform/notifications.ts';
import { type PreparedBillPayment, payBill, prepareBillPayment } from '../bills/service.ts';
import { type PayoutSource, precheckPayout, requestPayout } from '../payouts/service.ts';
import {
  publishQuickPay,
  type QuickPayPlan,
  recipientKeyOf,
  sendScheduledQuickPay,
  type TransferDeps,
} from '../transfers/service.ts';
import {
  advanceSchedule,
  type DueOccurrenceRow,
  findPayeeOf,
  findScheduleOf,
  insertOccurrence,
  lockActiveSchedule,
  lockDueOccurrence,
  occurrencesDue,
  recordAttempt,
  type ScheduleCandidate,
  type ScheduleRow,
  schedulesMaybeDue,
} from './queries.ts';
import { amountText, endOf, ruleOf } from './service.ts';

export type RunnerDeps = TransferDeps;

/** How often an instance looks for due occurrences (platform/jobs.ts). */
export const scheduledPaymentsIntervalMs = 10 * 60 * 1000;
/** A refused occurrence is tried once more, this much later; then it is missed. */
export const retryDelayMs = 4 * 60 * 60 * 1000;
export const attemptsMax = 2;
/**
 * An occurrence due more than this many days before the run (Coffer was not running, or
 * the clock jumped) is marked missed instead of paid late: nobody expects last month's
 * rent to leave today.
 */
export const catchUpDaysMax = 3;
const schedulesPerBatch = 500;
const occurrencesPerBatch = 200;
/**
 * A run pages through everything due, but stops well inside the job's lease (10 min,
 * platform/jobs.ts) so that no second instance claims the job while it still runs; the
 * rest waits for the next run.
 */
const runBudgetMs = 4 * 60 * 1000;
/** A bound on the dates one schedule makes in one run (weekly for ten years is 520). */
const datesPerScheduleMax = 600;

type OccurrenceKey = { scheduleId: string; localDate: string };

/** What paying one occurrence needs, read before its transaction (PGlite has one connection). */
type PreparedPayment =
  | { kind: 'quick_pay'; plan: QuickPayPlan }
  | { kind: 'bill'; body: BillPaymentBody; prepared: PreparedBillPayment }
  | { kind: 'payout'; source: PayoutSource; destination: PayoutDestination };

/**
 * The scheduled-payments job: makes the occurrences whose local date has come in each
 * customer's zone, then pays the due ones. `now` is the moment the run was claimed for,
 * so a test can run "next month".
 */
export async function runScheduledPayments(deps: RunnerDeps, now: Date): Promise<void> {
  const deadline = Date.now() + runBudgetMs;
  await makeDueOccurrences(deps, now, deadline);
  let after: DueOccurrenceRow | null = null;
  while (Date.now() < deadline) {
    const rows = await occurrencesDue(deps.db, now, after, occurrencesPerBatch);
    await attemptOccurrences(deps, rows.map(toDueOccurrence), now);
    if (rows.length < occurrencesPerBatch) return;
    after = rows.at(-1) ?? null;
  }
}

type DueOccurrence = OccurrenceKey & { amountMinor: bigint };

function toDueOccurrence(row: DueOccurrenceRow): DueOccurrence {
  return {
    scheduleId: row.schedule_id,
    localDate: row.local_date,
    amountMinor: BigInt(row.amount_minor),
  };
}

/** The first occurrences due for an attempt at `now`, as one runner reads them before paying. */
export async function dueOccurrences(deps: RunnerDeps, now: Date): Promise<DueOccurrence[]> {
  const rows = await occurrencesDue(deps.db, now, null, occurrencesPerBatch);
  return rows.map(toDueOccurrence);
}

/**
 * Attempts each occurrence read by `dueOccurrences`. Another runner may have paid some
 * since it read them: each attempt checks again under the occurrence's lock.
 */
export async function attemptOccurrences(
  deps: RunnerDeps,
  due: DueOccurrence[],
  now: Date,
): Promise<void> {
  const failures: unknown[] = [];
  for (const occurrence of due) {
    try {
      await attemptOccurrence(deps, occurrence, now);
    } catch (error) {
      // A bug in one occurrence must not hold up the others; the job records it.
      failures.push(error);
    }
  }
  if (failures.length > 0) throw failures[0];
}

export async function makeDueOccurrences(
  deps: RunnerDeps,
  now: Date,
  deadline = Date.now() + runBudgetMs,
): Promise<void> {
  const utcDate = now.toISOString().slice(0, 10);
  let after: { nextDate: string; id: string } | null = null;
  while (Date.now() < deadline) {
    const candidates = await schedulesMaybeDue(deps.db, utcDate, after, schedulesPerBatch);
    for (const candidate of candidates) await makeOccurrencesOf(deps, candidate, now);
    const last = candidates.at(-1);
    if (!last || candidates.length < schedulesPerBatch) return;
    after = { nextDate: last.next_date, id: last.id };
  }
}

async function makeOccurrencesOf(
  deps: RunnerDeps,
  candidate: ScheduleCandidate,
  now: Date,
): Promise<void> {
  const timeZone = customerTimeZone(
    { chosenTimeZone: candidate.time_zone, country: candidate.country },
    deps.config.timeZone,
  );
  const today = todayIn(timeZone, now);
  if (candidate.next_date > today) return;
  await deps.db.transaction(async (tx) => {
    const schedule = await lockActiveSchedule(tx, candidate.id);
    if (schedule) await makeOccurrencesUpTo(tx, schedule, today, now);
  });
}

/**
 * Makes every occurrence of the schedule dated up to `today`, each once (its date is its
 * key), and moves the schedule's next date past them. One long overdue is made missed.
 */
async function makeOccurrencesUpTo(
  tx: Queryable,
  schedule: ScheduleRow,
  today: string,
  now: Date,
): Promise<void> {
  const rule = ruleOf(schedule);
  const end = endOf(schedule);
  let date = schedule.next_date;
  let made = schedule.occurrences_made;
  for (let count = 0; date !== null && date <= today && count < datesPerScheduleMax; count++) {
    const isTooLate = daysBetween(date, today) > catchUpDaysMax;
    await insertOccurrence(tx, {
      scheduleId: schedule.id,
      localDate: date,
      amountMinor: schedule.amount_minor,
      status: isTooLate ? 'missed' : 'pending',
      reason: isTooLate
        ? `It was due on ${date}, more than ${catchUpDaysMax} days before Coffer could run it, so it was not paid late.`
        : null,
      nextAttemptAt: isTooLate ? null : now,
    });
    made += 1;
    date = nextDateAfter(rule, end, date, made);
  }
  await advanceSchedule(tx, schedule.id, { occurrencesMade: made, nextDate: date });
}

/** The idempotency key of an occurrence: a scope no HTTP request can use. */
function occurrenceClaim(schedule: ScheduleRow, key: OccurrenceKey): IdempotencyClaim {
  const idempotencyKey = `scheduled:${key.scheduleId}:${key.localDate}`;
  return {
    scope: `scheduled:${schedule.user_id}`,
    key: idempotencyKey,
    requestHash: hashRequest('SCHEDULED', idempotencyKey, { scheduleId: key.scheduleId }),
  };
}

function payeeGone(): AppError {
  return new AppError('not_found', {
    message: 'The payee of this scheduled payment was deleted, or changed.',
  });
}

/** Reads the payee and the wallet and prices the payment, as each payment's route does. */
async function preparePayment(
  deps: RunnerDeps,
  schedule: ScheduleRow,
  amountMinor: bigint,
): Promise<PreparedPayment> {
  const payee = await findPayeeOf(deps.db, schedule.user_id, schedule.payee_id);
  if (!payee) throw payeeGone();
  // Checked by the payees feature when it was saved; read back through the same contract.
  const target = payeeSchema.shape.target.parse(payee.target);
  const wallet = await findCustomerWallet(deps.db, schedule.user_id);
  if (!wallet || wallet.currency !== schedule.currency) {
    throw new AppError('not_found', { message: 'Your wallet is no longer in this currency.' });
  }
  const amount = amountText(amountMinor, wallet.currency);
  if (schedule.kind === 'quick_pay' && target.kind === 'coffer') {
    const plan: QuickPayPlan = {
      senderUserId: schedule.user_id,
      senderWalletId: wallet.id,
      currency: wallet.currency,
      limits: limitsOrRefuse(deps.config.limits, wallet.currency),
      amountMinor,
      recipient: recipientKeyOf(target.recipient),
      note: schedule.reference ?? 'Scheduled payment',
      stepUpProof: null,
    };
    return { kind: 'quick_pay', plan };
  }
  if (schedule.kind === 'bill' && target.kind === 'bill') {
    const body = { category: target.category, billerReference: target.billerReference, amount };
    return { kind: 'bill', body, prepared: await prepareBillPayment(deps, schedule.user_id, body) };
  }
  if (schedule.kind === 'payout' && target.kind === 'payout') {
    const source = await precheckPayout(deps, schedule.user_id, amount);
    return { kind: 'payout', source, destination: target.destination };
  }
  throw payeeGone();
}

/**
 * Pays through the payment's own service, in `tx`: the same checks (frozen wallet,
 * verification, level, daily limit, balance) as when the customer pays by hand. Answers
 * the ledger reference, and what to publish after the commit.
 */
async function pay(
  deps: RunnerDeps,
  tx: Queryable,
  userId: string,
  claim: IdempotencyClaim,
  payment: PreparedPayment,
): Promise<{ reference: string; afterCommit: () => void }> {
  if (payment.kind === 'quick_pay') {
    const row = await sendScheduledQuickPay(deps, tx, claim, payment.plan);
    const body = row.response_body as { entryId?: string };
    return {
      reference: `entry:${body.entryId ?? 'unknown'}`,
      afterCommit: () => {
        if (row.is_claimed) publishQuickPay(deps, payment.plan, row);
      },
    };
  }
  const claimed = await tx.query<{ is_claimed: boolean; response_body: unknown }>(
    'SELECT is_claimed, response_body FROM idempotency_claim($1, $2, $3)',
    [claim.scope, claim.key, claim.requestHash],
  );
  // Paid before under this key (the occurrence row says so too): nothing is paid again.
  if (!claimed.rows[0]?.is_claimed) {
    return { reference: 'already-paid', afterCommit: () => deps.mailer.kick() };
  }
  const reference =
    payment.kind === 'bill'
      ? `bill_payment:${(await payBill(deps, tx, userId, payment.body, payment.prepared)).id}`
      : `payout:${(await requestPayout(deps, tx, { ...payment.source, destination: payment.destination, proof: null })).id}`;
  await tx.query(
    `UPDATE idempotency_keys SET response_status = 201, response_body = $3
      WHERE scope = $1 AND key = $2`,
    [claim.scope, claim.key, JSON.stringify({ reference })],
  );
  return { reference, afterCommit: () => deps.mailer.kick() };
}

async function findSchedule(db: Queryable, scheduleId: string): Promise<ScheduleRow | null> {
  const found = await db.query<{ user_id: string }>(
    'SELECT user_id FROM scheduled_payments WHERE id = $1',
    [scheduleId],
  );
  const userId = found.rows[0]?.user_id;
  return userId ? findScheduleOf(db, userId, scheduleId) : null;
}

/**
 * One attempt at one occurrence, in one transaction that holds the occurrence's row lock
 * (SKIP LOCKED: a second runner passes it by) and marks it paid with the payment, or
 * records the refusal: both commit or neither does, so it is paid at most once.
 */
async function attemptOccurrence(deps: RunnerDeps, key: DueOccurrence, now: Date): Promise<void> {
  const schedule = await findSchedule(deps.db, key.scheduleId);
  if (!schedule) return;
  let prepared: PreparedPayment | AppError;
  try {
    // The amount the occurrence was made with: an edit applies from the next one on.
    prepared = await preparePayment(deps, schedule, key.amountMinor);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    prepared = error;
  }
  let afterCommit = () => deps.mailer.kick();
  await deps.db.transaction(async (tx) => {
    const occurrence = await lockDueOccurrence(tx, key, now);
    if (!occurrence) return;
    // An open schedules page shows the outcome, whichever it is, once this commits.
    await publishEvent(tx, { userId: schedule.user_id, topics: ['scheduled-payments'] });
    if (schedule.status !== 'active') {
      await recordAttempt(tx, key, {
        status: 'skipped',
        attempts: occurrence.attempts,
        reason: 'The scheduled payment is paused or cancelled.',
        ledgerReference: null,
        nextAttemptAt: null,
      });
      return;
    }
    const payment = prepared;
    const attempts = occurrence.attempts + 1;
    if (!(payment instanceof AppError)) {
      await tx.query('SAVEPOINT scheduled_payment');
      try {
        const claim = occurrenceClaim(schedule, key);
        const paid = await pay(deps, tx, schedule.user_id, claim, payment);
        await recordAttempt(tx, key, {
          status: 'paid',
          attempts,
          reason: null,
          ledgerReference: paid.reference,
          nextAttemptAt: null,
        });
        afterCommit = paid.afterCommit;
        return;
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        await tx.query('ROLLBACK TO SAVEPOINT scheduled_payment');
        await recordRefusal(deps, tx, schedule, key, attempts, error, now);
        return;
      }
    }
    await recordRefusal(deps, tx, schedule, key, attempts, payment, now);
  });
  afterCommit();
}

/**
 * A refused occurrence: the customer hears why; it is tried once more `retryDelayMs`
 * later, then missed. The schedule's next occurrence is not touched.
 */
async function recordRefusal(
  deps: RunnerDeps,
  tx: Queryable,
  schedule: ScheduleRow,
  key: OccurrenceKey & { amountMinor: bigint },
  attempts: number,
  refusal: AppError,
  now: Date,
): Promise<void> {
  const isRetried = attempts < attemptsMax;
  const nextAttemptAt = isRetried ? new Date(now.getTime() + retryDelayMs) : null;
  await recordAttempt(tx, key, {
    status: isRetried ? 'retrying' : 'missed',
    attempts,
    reason: refusal.message,
    ledgerReference: null,
    nextAttemptAt,
  });
  const amount = formatMoney({
    amountMinor: key.amountMinor,
    currency: toCurrencyCode(schedule.currency),
  });
  const reason = /[.!?]$/.test(refusal.message) ? refusal.message : `${refusal.message}.`;
  const payment = `Your scheduled payment of ${amount} to ${schedule.payee_nickname ?? 'a deleted payee'} due on ${key.localDate}`;
  await notify(
    tx,
    {
      userId: schedule.user_id,
      kind: isRetried ? 'scheduled_payment_retrying' : 'scheduled_payment_missed',
      text: isRetried
        ? `${payment} could not be made: ${reason} We will try again in ${retryDelayMs / 3_600_000} hours.`
        : `${payment} was missed: ${reason} Your next scheduled payments are not affected.`,
      link: '/scheduled-payments',
    },
    deps.config,
  );
}
