import type {
  OccurrenceStatus,
  ScheduleKind,
  ScheduleStatus,
} from '@coffer/contracts/scheduled-payments';
import type { Queryable } from '../../db/client.ts';

/** A schedule as stored; dates come back as YYYY-MM-DD text, never as a Date in some zone. */
export type ScheduleRow = {
  id: string;
  user_id: string;
  payee_id: string;
  payee_nickname: string | null;
  kind: ScheduleKind;
  amount_minor: bigint;
  currency: string;
  reference: string | null;
  frequency: 'once' | 'weekly' | 'monthly';
  start_date: string;
  weekday: number | null;
  day_of_month: number | null;
  is_last_day_of_month: boolean;
  end_type: 'never' | 'until' | 'count';
  end_date: string | null;
  occurrences_max: number | null;
  occurrences_made: number;
  next_date: string | null;
  status: ScheduleStatus;
  created_at: Date;
  updated_at: Date;
};

export type OccurrenceRow = {
  schedule_id: string;
  local_date: string;
  amount_minor: bigint;
  status: OccurrenceStatus;
  attempts: number;
  reason: string | null;
  ledger_reference: string | null;
  next_attempt_at: Date | null;
};

const selectSchedule = `
  SELECT s.id, s.user_id, s.payee_id, p.nickname AS payee_nickname, s.kind, s.amount_minor,
         s.currency, s.reference, s.frequency, s.start_date::text AS start_date, s.weekday,
         s.day_of_month, s.is_last_day_of_month, s.end_type, s.end_date::text AS end_date,
         s.occurrences_max, s.occurrences_made, s.next_date::text AS next_date, s.status,
         s.created_at, s.updated_at
    FROM scheduled_payments s
    LEFT JOIN payees p ON p.id = s.payee_id AND p.user_id = s.user_id`;

const selectOccurrence = `
  SELECT schedule_id, local_date::text AS local_date, amount_minor, status, attempts, reason,
         ledger_reference, next_attempt_at
    FROM scheduled_payment_occurrences`;

/** The customer's schedules, newest first; cancelled ones are left out. */
export async function schedulesOfUser(db: Queryable, userId: string): Promise<ScheduleRow[]> {
  const found = await db.query<ScheduleRow>(
    `${selectSchedule} WHERE s.user_id = $1 AND s.status <> 'cancelled'
      ORDER BY s.created_at DESC, s.id DESC`,
    [userId],
  );
  return found.rows;
}

/** One of the customer's schedules; another customer's is not found. */
export async function findScheduleOf(
  db: Queryable,
  userId: string,
  scheduleId: string,
  options: { isLocked?: boolean } = {},
): Promise<ScheduleRow | null> {
  const found = await db.query<ScheduleRow>(
    `${selectSchedule} WHERE s.id = $1 AND s.user_id = $2${options.isLocked ? ' FOR UPDATE OF s' : ''}`,
    [scheduleId, userId],
  );
  return found.rows[0] ?? null;
}

export async function countOpenSchedules(tx: Queryable, userId: string): Promise<number> {
  const found = await tx.query<{ count: number }>(
    // An ended schedule (active, no next date) pays nothing more and does not count.
    `SELECT count(*)::int AS count FROM scheduled_payments
      WHERE user_id = $1 AND status <> 'cancelled'
        AND NOT (status = 'active' AND next_date IS NULL)`,
    [userId],
  );
  return found.rows[0]?.count ?? 0;
}

/** The columns a create or an edit writes. */
export type ScheduleFields = {
  payeeId: string;
  kind: ScheduleKind;
  amountMinor: bigint;
  currency: string;
  reference: string | null;
  frequency: 'once' | 'weekly' | 'monthly';
  startDate: string;
  weekday: number | null;
  dayOfMonth: number | null;
  isLastDayOfMonth: boolean;
  endType: 'never' | 'until' | 'count';
  endDate: string | null;
  occurrencesMax: number | null;
  nextDate: string | null;
};

function fieldValues(fields: ScheduleFields): unknown[] {
  return [
    fields.payeeId,
    fields.kind,
    fields.amountMinor.toString(),
    fields.currency,
    fields.reference,
    fields.frequency,
    fields.startDate,
    fields.weekday,
    fields.dayOfMonth,
    fields.isLastDayOfMonth,
    fields.endType,
    fields.endDate,
    fields.occurrencesMax,
    fields.nextDate,
  ];
}

export async function insertSchedule(
  tx: Queryable,
  id: string,
  userId: string,
  fields: ScheduleFields,
): Promise<void> {
  await tx.query(
    `INSERT INTO scheduled_payments (id, user_id, payee_id, kind, amount_minor, currency,
        reference, frequency, start_date, weekday, day_of_month, is_last_day_of_month,
        end_type, end_date, occurrences_max, next_date)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
    [id, userId, ...fieldValues(fields)],
  );
}

/** An edit: the new rule and amount from the next occurrence on; those made stay as they are. */
export async function updateSchedule(
  tx: Queryable,
  id: string,
  fields: ScheduleFields,
): Promise<void> {
  await tx.query(
    `UPDATE scheduled_payments SET payee_id = $2, kind = $3, amount_minor = $4, currency = $5,
        reference = $6, frequency = $7, start_date = $8, weekday = $9, day_of_month = $10,
        is_last_day_of_month = $11, end_type = $12, end_date = $13, occurrences_max = $14,
        next_date = $15, updated_at = now()
      WHERE id = $1`,
    [id, ...fieldValues(fields)],
  );
}

export async function setScheduleStatus(
  tx: Queryable,
  id: string,
  status: ScheduleStatus,
  nextDate: string | null,
): Promise<void> {
  await tx.query(
    `UPDATE scheduled_payments SET status = $2, next_date = $3, updated_at = now() WHERE id = $1`,
    [id, status, nextDate],
  );
}

/** Occurrences not yet paid or given up on no longer run: the schedule was paused or cancelled. */
export async function skipOpenOccurrences(
  tx: Queryable,
  scheduleId: string,
  reason: string,
): Promise<void> {
  await tx.query(
    `UPDATE scheduled_payment_occurrences
        SET status = 'skipped', reason = $2, next_attempt_at = NULL, updated_at = now()
      WHERE schedule_id = $1 AND status IN ('pending', 'retrying')`,
    [scheduleId, reason],
  );
}

/** The latest occurrences of each schedule, newest first, at most `perSchedule` each. */
export async function recentOccurrencesOf(
  db: Queryable,
  scheduleIds: string[],
  perSchedule: number,
): Promise<OccurrenceRow[]> {
  if (scheduleIds.length === 0) return [];
  const found = await db.query<OccurrenceRow>(
    `SELECT o.* FROM unnest($1::uuid[]) AS s(id)
       CROSS JOIN LATERAL (
         ${selectOccurrence} WHERE schedule_id = s.id ORDER BY local_date DESC LIMIT $2
       ) o`,
    [scheduleIds, perSchedule],
  );
  return found.rows;
}

// The runner's queries (runner.ts).

export type ScheduleCandidate = {
  id: string;
  user_id: string;
  next_date: string;
  time_zone: string | null;
  country: string;
};

/**
 * Active schedules whose next date may have come somewhere (UTC+14 is a day ahead of UTC,
 * so the exact check, in the customer's zone, is the caller's), after `after` in
 * (next date, id) order: a run pages through them all, each once.
 */
export async function schedulesMaybeDue(
  db: Queryable,
  utcDate: string,
  after: { nextDate: string; id: string } | null,
  limit: number,
): Promise<ScheduleCandidate[]> {
  const found = await db.query<ScheduleCandidate>(
    `SELECT s.id, s.user_id, s.next_date::text AS next_date, u.time_zone, u.country
       FROM scheduled_payments s JOIN users u ON u.id = s.user_id
      WHERE s.status = 'active' AND s.next_date IS NOT NULL
        AND s.next_date <= $1::date + 1
        AND ($2::date IS NULL OR (s.next_date, s.id) > ($2::date, $3::uuid))
      ORDER BY s.next_date, s.id LIMIT $4`,
    [utcDate, after?.nextDate ?? null, after?.id ?? null, limit],
  );
  return found.rows;
}

/** The schedule for the runner, locked; null when another runner holds it or it stopped. */
export async function lockActiveSchedule(
  tx: Queryable,
  scheduleId: string,
): Promise<ScheduleRow | null> {
  const found = await tx.query<ScheduleRow>(
    `${selectSchedule} WHERE s.id = $1 AND s.status = 'active' FOR UPDATE OF s SKIP LOCKED`,
    [scheduleId],
  );
  return found.rows[0] ?? null;
}

/** Makes an occurrence once: its date is its key, so a second runner's insert does nothing. */
export async function insertOccurrence(
  tx: Queryable,
  occurrence: {
    scheduleId: string;
    localDate: string;
    amountMinor: bigint;
    status: 'pending' | 'missed';
    reason: string | null;
    nextAttemptAt: Date | null;
  },
): Promise<void> {
  await tx.query(
    `INSERT INTO scheduled_payment_occurrences
        (schedule_id, local_date, amount_minor, status, reason, next_attempt_at)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
    [
      occurrence.scheduleId,
      occurrence.localDate,
      occurrence.amountMinor.toString(),
      occurrence.status,
      occurrence.reason,
      occurrence.nextAttemptAt,
    ],
  );
}

export async function advanceSchedule(
  tx: Queryable,
  scheduleId: string,
  progress: { occurrencesMade: number; nextDate: string | null },
): Promise<void> {
  await tx.query(
    `UPDATE scheduled_payments SET occurrences_made = $2, next_date = $3 WHERE id = $1`,
    [scheduleId, progress.occurrencesMade, progress.nextDate],
  );
}

export type DueOccurrenceRow = {
  schedule_id: string;
  local_date: string;
  amount_minor: bigint;
  next_attempt_at: Date;
};

/**
 * Occurrences due for an attempt at `now`, oldest first, after `after` in that order: a run
 * pages through them, and one it attempted is no longer due (paid, or due again later).
 */
export async function occurrencesDue(
  db: Queryable,
  now: Date,
  after: DueOccurrenceRow | null,
  limit: number,
): Promise<DueOccurrenceRow[]> {
  const found = await db.query<DueOccurrenceRow>(
    `SELECT schedule_id, local_date::text AS local_date, amount_minor, next_attempt_at
       FROM scheduled_payment_occurrences
      WHERE status IN ('pending', 'retrying') AND next_attempt_at <= $1
        AND ($2::timestamptz IS NULL
             OR (next_attempt_at, schedule_id, local_date) > ($2::timestamptz, $3::uuid, $4::date))
      ORDER BY next_attempt_at, schedule_id, local_date LIMIT $5`,
    [
      now,
      after?.next_attempt_at ?? null,
      after?.schedule_id ?? null,
      after?.local_date ?? null,
      limit,
    ],
  );
  return found.rows;
}

/**
 * The occurrence, locked for its attempt, if it is still due: another runner holding it
 * (SKIP LOCKED), or one that paid it meanwhile, leaves nothing to do.
 */
export async function lockDueOccurrence(
  tx: Queryable,
  key: { scheduleId: string; localDate: string },
  now: Date,
): Promise<OccurrenceRow | null> {
  const found = await tx.query<OccurrenceRow>(
    `${selectOccurrence}
      WHERE schedule_id = $1 AND local_date = $2 AND status IN ('pending', 'retrying')
        AND next_attempt_at <= $3
      FOR UPDATE SKIP LOCKED`,
    [key.scheduleId, key.localDate, now],
  );
  return found.rows[0] ?? null;
}

export async function recordAttempt(
  tx: Queryable,
  key: { scheduleId: string; localDate: string },
  outcome: {
    status: OccurrenceStatus;
    attempts: number;
    reason: string | null;
    ledgerReference: string | null;
    nextAttemptAt: Date | null;
  },
): Promise<void> {
  await tx.query(
    `UPDATE scheduled_payment_occurrences
        SET status = $3, attempts = $4, reason = $5, ledger_reference = $6, next_attempt_at = $7,
            updated_at = now()
      WHERE schedule_id = $1 AND local_date = $2`,
    [
      key.scheduleId,
      key.localDate,
      outcome.status,
      outcome.attempts,
      outcome.reason,
      outcome.ledgerReference,
      outcome.nextAttemptAt,
    ],
  );
}

/** The payee a schedule pays, if the customer still has it. */
export async function findPayeeOf(
  db: Queryable,
  userId: string,
  payeeId: string,
): Promise<{ id: string; nickname: string; kind: string; target: unknown } | null> {
  const found = await db.query<{ id: string; nickname: string; kind: string; target: unknown }>(
    'SELECT id, nickname, kind, target FROM payees WHERE id = $1 AND user_id = $2',
    [payeeId, userId],
  );
  return found.rows[0] ?? null;
}
