// Saved payees and the scheduled-payments runner, for the tests of scheduled payments.

import type { PayeeTarget } from '@coffer/contracts/payees';
import { todayIn } from '@coffer/contracts/time-zones';
import type { FastifyInstance } from 'fastify';
import { payeeKeyOf } from '../src/features/payouts/service.ts';
import {
  attemptOccurrences,
  dueOccurrences,
  makeDueOccurrences,
  runScheduledPayments,
} from '../src/features/scheduled-payments/runner.ts';
import { newId } from '../src/platform/ids.ts';

/**
 * A saved payee, written as the payees feature writes one after its step-up code (that
 * flow has its own tests): schedules only ever point at saved payees.
 */
export async function savePayee(
  app: FastifyInstance,
  userId: string,
  nickname: string,
  target: PayeeTarget,
): Promise<string> {
  const id = newId();
  const targetKey =
    target.kind === 'coffer'
      ? `coffer:${target.recipient.toLowerCase()}`
      : target.kind === 'bill'
        ? `bill:${target.category}:${target.billerReference.toUpperCase()}`
        : `payout:${payeeKeyOf(target.destination)}`;
  await app.db.query(
    `INSERT INTO payees (id, user_id, nickname, kind, target, target_key)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [id, userId, nickname, target.kind, JSON.stringify(target), targetKey],
  );
  return id;
}

/** Sets the customer's own time zone, as the profile page does. */
export async function setTimeZone(
  app: FastifyInstance,
  userId: string,
  timeZone: string,
): Promise<string> {
  await app.db.query('UPDATE users SET time_zone = $2 WHERE id = $1', [userId, timeZone]);
  return todayIn(timeZone);
}

function runnerDeps(app: FastifyInstance) {
  return {
    db: app.db,
    ledger: app.ledger,
    config: app.config,
    mailer: app.mailer,
    site: app.site,
    events: app.eventHub,
  };
}

/** One run of the scheduled-payments job at `now`, as the jobs runner would call it. */
export function runSchedules(app: FastifyInstance, now: Date): Promise<void> {
  return runScheduledPayments(runnerDeps(app), now);
}

/**
 * A slow runner: it reads the due occurrences, then `meanwhile` runs (other runners pay
 * them), then it attempts what it read.
 */
export async function runSlowly(
  app: FastifyInstance,
  now: Date,
  meanwhile: () => Promise<void>,
): Promise<void> {
  const deps = runnerDeps(app);
  await makeDueOccurrences(deps, now);
  const due = await dueOccurrences(deps, now);
  await meanwhile();
  await attemptOccurrences(deps, due, now);
}

export type OccurrenceState = {
  local_date: string;
  status: string;
  attempts: number;
  reason: string | null;
};

export async function occurrencesOf(
  app: FastifyInstance,
  scheduleId: string,
): Promise<OccurrenceState[]> {
  const found = await app.db.query<OccurrenceState>(
    `SELECT local_date::text AS local_date, status, attempts, reason
       FROM scheduled_payment_occurrences WHERE schedule_id = $1 ORDER BY local_date`,
    [scheduleId],
  );
  return found.rows;
}
