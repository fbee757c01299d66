import type { CurrencyCode } from '@coffer/contracts/currencies';
import type { AmountUse } from '@coffer/contracts/money';
import { minorUnits, toDecimalString } from '@coffer/contracts/money';
import { addDays, firstDateWithinEnd } from '@coffer/contracts/schedule-dates';
import {
  pastDateMessage,
  type ScheduleBody,
  type ScheduledPayment,
  type ScheduledPaymentList,
  type ScheduleEnd,
  type ScheduleKind,
  type ScheduleRule,
  scheduledPaymentsMax,
  upcomingDates,
  upcomingDatesShown,
} from '@coffer/contracts/scheduled-payments';
import { todayIn } from '@coffer/contracts/time-zones';
import type { Config } from '../../config.ts';
import { findUserById, timeZoneOfUser } from '../../customers/queries.ts';
import type { Database, Queryable } from '../../db/client.ts';
import { findCustomerWallet } from '../../ledger/wallets.ts';
import { limitsOrRefuse } from '../../money-out/money-out.ts';
import { positiveAmountOrRefuse } from '../../platform/amounts.ts';
import { AppError } from '../../platform/app-error.ts';
import { newId } from '../../platform/ids.ts';
import {
  countOpenSchedules,
  findPayeeOf,
  findScheduleOf,
  insertSchedule,
  type OccurrenceRow,
  recentOccurrencesOf,
  type ScheduleFields,
  type ScheduleRow,
  schedulesOfUser,
  setScheduleStatus,
  skipOpenOccurrences,
  updateSchedule,
} from './queries.ts';

export type ScheduleDeps = { db: Database; config: Config };

const recentOccurrencesShown = 5;

/** A payee's kind decides the payment a schedule makes. */
const kindOfPayee: Record<string, ScheduleKind> = {
  coffer: 'quick_pay',
  bill: 'bill',
  payout: 'payout',
};
const amountUseOf: Record<ScheduleKind, AmountUse> = {
  quick_pay: 'quickPay',
  bill: 'bill',
  payout: 'payout',
};

export function ruleOf(
  row: Pick<
    ScheduleRow,
    'frequency' | 'start_date' | 'weekday' | 'day_of_month' | 'is_last_day_of_month'
  >,
): ScheduleRule {
  switch (row.frequency) {
    case 'once':
      return { frequency: 'once', startDate: row.start_date };
    case 'weekly':
      return { frequency: 'weekly', startDate: row.start_date, weekday: row.weekday ?? 1 };
    case 'monthly':
      return {
        frequency: 'monthly',
        startDate: row.start_date,
        dayOfMonth: row.is_last_day_of_month ? 'last' : (row.day_of_month ?? 1),
      };
  }
}

export function endOf(
  row: Pick<ScheduleRow, 'end_type' | 'end_date' | 'occurrences_max'>,
): ScheduleEnd {
  if (row.end_type === 'until' && row.end_date) return { type: 'until', endDate: row.end_date };
  if (row.end_type === 'count' && row.occurrences_max) {
    return { type: 'count', occurrencesMax: row.occurrences_max };
  }
  return { type: 'never' };
}

/** The customer's zone and today's date in it. */
export async function todayOfCustomer(
  deps: ScheduleDeps,
  userId: string,
  now: Date = new Date(),
): Promise<{ timeZone: string; today: string }> {
  const user = await findUserById(deps.db, userId);
  if (!user) throw new AppError('not_found');
  const timeZone = timeZoneOfUser(user, deps.config);
  return { timeZone, today: todayIn(timeZone, now) };
}

function toOccurrence(row: OccurrenceRow): ScheduledPayment['recentOccurrences'][number] {
  return {
    date: row.local_date,
    status: row.status,
    attempts: row.attempts,
    reason: row.reason,
    nextAttemptAt: row.next_attempt_at ? row.next_attempt_at.toISOString() : null,
  };
}

function toScheduledPayment(
  row: ScheduleRow,
  occurrences: OccurrenceRow[],
  timeZone: string,
): ScheduledPayment {
  const openDates = occurrences
    .filter((occurrence) => occurrence.status === 'pending' || occurrence.status === 'retrying')
    .map((occurrence) => occurrence.local_date)
    .sort();
  const future =
    row.status === 'active'
      ? upcomingDates(ruleOf(row), endOf(row), row.next_date, row.occurrences_made, 3)
      : [];
  return {
    id: row.id,
    payeeId: row.payee_id,
    payeeNickname: row.payee_nickname,
    kind: row.kind,
    amountMinor: minorUnits(row.amount_minor),
    currency: row.currency,
    reference: row.reference,
    frequency: row.frequency,
    startDate: row.start_date,
    weekday: row.weekday,
    dayOfMonth: row.is_last_day_of_month ? 'last' : row.day_of_month,
    endType: row.end_type,
    endDate: row.end_date,
    occurrencesMax: row.occurrences_max,
    status: row.status,
    upcomingDates: [...openDates, ...future].slice(0, upcomingDatesShown),
    recentOccurrences: occurrences.map(toOccurrence),
    timeZone,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export async function scheduledPaymentsOf(
  deps: ScheduleDeps,
  userId: string,
): Promise<ScheduledPaymentList> {
  const { timeZone } = await todayOfCustomer(deps, userId);
  const rows = await schedulesOfUser(deps.db, userId);
  const occurrences = await recentOccurrencesOf(
    deps.db,
    rows.map((row) => row.id),
    recentOccurrencesShown,
  );
  return {
    items: rows.map((row) =>
      toScheduledPayment(
        row,
        occurrences.filter((occurrence) => occurrence.schedule_id === row.id),
        timeZone,
      ),
    ),
  };
}

async function scheduleAnswer(
  deps: ScheduleDeps,
  userId: string,
  scheduleId: string,
): Promise<ScheduledPayment> {
  const { timeZone } = await todayOfCustomer(deps, userId);
  const row = await findScheduleOf(deps.db, userId, scheduleId);
  if (!row) throw new AppError('not_found');
  const occurrences = await recentOccurrencesOf(deps.db, [row.id], recentOccurrencesShown);
  return toScheduledPayment(row, occurrences, timeZone);
}

function pastDate(field: 'startDate'): AppError {
  return new AppError('validation_failed', {
    message: pastDateMessage,
    fields: { [field]: pastDateMessage },
  });
}

/**
 * What a body asks for, checked against what only the server knows: the payee is one of
 * the customer's, the amount is valid in the wallet's currency (and its limits are set up),
 * and no date is in the past in the customer's zone. `from` is the first date the new rule
 * may pay on: today for a new schedule, the day after the last occurrence made for an edit.
 */
async function fieldsOf(
  deps: ScheduleDeps,
  userId: string,
  body: ScheduleBody,
  dates: { today: string; from: string; keptStartDate: string | null; madeCount: number },
): Promise<ScheduleFields> {
  const payee = await findPayeeOf(deps.db, userId, body.payeeId);
  if (!payee) {
    throw new AppError('not_found', {
      message: 'This payee was not found.',
      fields: { payeeId: 'Choose one of your saved payees' },
    });
  }
  const wallet = await findCustomerWallet(deps.db, userId);
  if (!wallet) throw new AppError('not_found', { message: 'You have no wallet to pay from.' });
  const currency: CurrencyCode = wallet.currency;
  limitsOrRefuse(deps.config.limits, currency);
  const kind = kindOfPayee[payee.kind] ?? 'quick_pay';
  const amountMinor = positiveAmountOrRefuse(body.amount, currency, amountUseOf[kind]);
  // An edit may keep a start date that has passed; a new date must not be in the past.
  if (body.startDate < dates.today && body.startDate !== dates.keptStartDate) {
    throw pastDate('startDate');
  }
  const isOnce = body.frequency === 'once';
  const endType = isOnce ? 'never' : body.endType;
  const fields: ScheduleFields = {
    payeeId: payee.id,
    kind,
    amountMinor,
    currency,
    reference: body.reference || null,
    frequency: body.frequency,
    startDate: body.startDate,
    weekday: body.frequency === 'weekly' ? (body.weekday ?? null) : null,
    dayOfMonth:
      body.frequency === 'monthly' && body.dayOfMonth !== 'last' ? (body.dayOfMonth ?? null) : null,
    isLastDayOfMonth: body.frequency === 'monthly' && body.dayOfMonth === 'last',
    endType,
    endDate: endType === 'until' ? (body.endDate ?? null) : null,
    occurrencesMax: endType === 'count' ? (body.occurrencesMax ?? null) : null,
    nextDate: null,
  };
  const row = {
    frequency: fields.frequency,
    start_date: fields.startDate,
    weekday: fields.weekday,
    day_of_month: fields.dayOfMonth,
    is_last_day_of_month: fields.isLastDayOfMonth,
    end_type: fields.endType,
    end_date: fields.endDate,
    occurrences_max: fields.occurrencesMax,
  };
  fields.nextDate = firstDateWithinEnd(ruleOf(row), endOf(row), dates.from, dates.madeCount);
  if (fields.nextDate === null) {
    throw new AppError('validation_failed', {
      message: 'This schedule would never pay: no date of it is left.',
      fields:
        fields.endType === 'count'
          ? { occurrencesMax: 'All these payments have been made already' }
          : { endDate: 'No payment date is left before this end' },
    });
  }
  return fields;
}

/** Orders a customer's creates on their user row, so parallel ones cannot pass the limit. */
async function lockCustomer(tx: Queryable, userId: string): Promise<void> {
  await tx.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [userId]);
}

export async function createScheduledPayment(
  deps: ScheduleDeps,
  userId: string,
  body: ScheduleBody,
): Promise<ScheduledPayment> {
  const { today } = await todayOfCustomer(deps, userId);
  const from = resumeFrom(today, body.startDate, null);
  const fields = await fieldsOf(deps, userId, body, {
    today,
    from,
    keptStartDate: null,
    madeCount: 0,
  });
  const id = newId();
  await deps.db.transaction(async (tx) => {
    await lockCustomer(tx, userId);
    if ((await countOpenSchedules(tx, userId)) >= scheduledPaymentsMax) {
      throw new AppError('schedule_limit_reached');
    }
    await insertSchedule(tx, id, userId, fields);
  });
  return scheduleAnswer(deps, userId, id);
}

/** The last local date the runner made an occurrence for, if any. */
async function lastOccurrenceDate(db: Queryable, scheduleId: string): Promise<string | null> {
  const found = await db.query<{ last_date: string | null }>(
    `SELECT max(local_date)::text AS last_date FROM scheduled_payment_occurrences
      WHERE schedule_id = $1`,
    [scheduleId],
  );
  return found.rows[0]?.last_date ?? null;
}

/** The first date a changed or resumed schedule may pay on: today, after what was made. */
function resumeFrom(today: string, startDate: string, lastMade: string | null): string {
  const dates = [today, startDate, lastMade ? addDays(lastMade, 1) : today].sort();
  return dates[2] ?? today;
}

function isOpen(row: ScheduleRow): boolean {
  return row.status !== 'cancelled' && !(row.status === 'active' && row.next_date === null);
}

/**
 * An edit applies from the next occurrence on: occurrences already made (paid, or waiting
 * for their retry) keep their amount; the count of "after N times" goes on.
 */
export async function editScheduledPayment(
  deps: ScheduleDeps,
  userId: string,
  scheduleId: string,
  body: ScheduleBody,
): Promise<ScheduledPayment> {
  const existing = await findScheduleOf(deps.db, userId, scheduleId);
  if (!existing) throw new AppError('not_found');
  if (!isOpen(existing)) throw new AppError('schedule_not_editable');
  const { today } = await todayOfCustomer(deps, userId);
  const lastMade = await lastOccurrenceDate(deps.db, scheduleId);
  const fields = await fieldsOf(deps, userId, body, {
    today,
    from: resumeFrom(today, body.startDate, lastMade),
    keptStartDate: existing.start_date,
    madeCount: existing.occurrences_made,
  });
  await deps.db.transaction(async (tx) => {
    const locked = await findScheduleOf(tx, userId, scheduleId, { isLocked: true });
    if (!locked || !isOpen(locked)) throw new AppError('schedule_not_editable');
    await updateSchedule(tx, scheduleId, fields);
  });
  return scheduleAnswer(deps, userId, scheduleId);
}

/** Pause, resume or cancel: the states a customer moves their schedule between. */
export async function changeScheduleStatus(
  deps: ScheduleDeps,
  userId: string,
  scheduleId: string,
  action: 'pause' | 'resume' | 'cancel',
): Promise<ScheduledPayment> {
  const { today } = await todayOfCustomer(deps, userId);
  const lastMade = await lastOccurrenceDate(deps.db, scheduleId);
  await deps.db.transaction(async (tx) => {
    const row = await findScheduleOf(tx, userId, scheduleId, { isLocked: true });
    if (!row) throw new AppError('not_found');
    if (row.status === 'cancelled') {
      if (action === 'cancel') return;
      throw new AppError('schedule_not_editable');
    }
    if (action === 'cancel') {
      await setScheduleStatus(tx, scheduleId, 'cancelled', null);
      await skipOpenOccurrences(tx, scheduleId, 'You cancelled this scheduled payment.');
    } else if (action === 'pause' && row.status === 'active') {
      await setScheduleStatus(tx, scheduleId, 'paused', row.next_date);
      await skipOpenOccurrences(tx, scheduleId, 'You paused this scheduled payment.');
    } else if (action === 'resume' && row.status === 'paused') {
      // Dates that passed while paused are not paid late: the next one on or after today is.
      const from = resumeFrom(today, row.start_date, lastMade);
      const nextDate = firstDateWithinEnd(ruleOf(row), endOf(row), from, row.occurrences_made);
      await setScheduleStatus(tx, scheduleId, 'active', nextDate);
    }
  });
  return scheduleAnswer(deps, userId, scheduleId);
}

/** The decimal text of an amount, as the payment forms send it to their services. */
export function amountText(amountMinor: bigint, currency: CurrencyCode): string {
  return toDecimalString(amountMinor, currency);
}
