import { setImmediate } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Queryable } from '../db/client.ts';
import type { ScheduledJob } from '../platform/jobs.ts';

/**
 * Customer wallets' lines summed per UTC hour and kind, for the reads over long periods
 * (ADR 053). Written here, by a job, for hours that have closed: a posting pays nothing for
 * it. `wallet_period_sums` (db/functions) reads them with the lines of the hours not summed.
 */

/**
 * A line's time is its transaction's start, so an hour is summed only once it ended this
 * long ago and no transaction that began before its end is still open.
 */
const settleMs = 5 * 60 * 1000;
/** Hours summed in one transaction: a first run over years of history commits a day at a time. */
const hoursPerTransaction = 24;
/** A run stops after this long and the next run goes on: well inside the job lease. */
const runBudgetMs = 5 * 60 * 1000;
/** The largest line id: `wallet_period_sums` up to it counts every line. */
export const lineIdMax = 9_223_372_036_854_775_807n;
const hourlyTotalsIntervalMs = 10 * 60 * 1000;

/**
 * Sums every closed hour (by the runner's clock and the database's, whichever is earlier) not yet summed, a day per transaction, and moves the watermark past
 * it in the same transaction; returns the hours summed. The state row's lock makes two
 * runners take turns.
 */
export async function summarizeClosedHours(db: Database, now: Date): Promise<number> {
  const stopAt = Date.now() + runBudgetMs;
  let hoursSummed = 0;
  for (;;) {
    const summed = await db.transaction(async (tx) => {
      const found = await tx.query<{ summed_from: Date | null; summed_to: Date | null }>(
        `WITH state AS (
           SELECT summarized_before FROM wallet_hourly_totals_state FOR UPDATE),
         closed AS (
           SELECT least(date_trunc('hour', $1::timestamptz, 'UTC'),
                        date_trunc('hour', now() - make_interval(secs => $3 / 1000.0), 'UTC'),
                        (SELECT date_trunc('hour', min(xact_start), 'UTC') FROM pg_stat_activity
                          WHERE xact_start IS NOT NULL AND pid <> pg_backend_pid())) AS before),
         first_hour AS (
           SELECT coalesce(state.summarized_before,
                           (SELECT date_trunc('hour', min(created_at), 'UTC') FROM journal_entries),
                           closed.before) AS at
             FROM state, closed)
         SELECT first_hour.at AS summed_from,
                least(first_hour.at + make_interval(hours => $2), closed.before) AS summed_to
           FROM first_hour, closed`,
        [new Date(now.getTime() - settleMs), hoursPerTransaction, settleMs],
      );
      const { summed_from: from, summed_to: to } = found.rows[0] ?? {};
      if (!from || !to || to <= from) return 0;
      await tx.query(
        `INSERT INTO wallet_hourly_totals
                (account_id, hour, kind, credits_minor, debits_minor, line_count, max_line_id)
         SELECT l.account_id, date_trunc('hour', l.posted_at, 'UTC'), l.kind,
                coalesce(sum(l.amount_minor) FILTER (WHERE l.amount_minor > 0), 0),
                coalesce(-sum(l.amount_minor) FILTER (WHERE l.amount_minor < 0), 0),
                count(*), max(l.id)
           FROM journal_entries e
           JOIN journal_lines l ON l.entry_id = e.id
           JOIN accounts a ON a.id = l.account_id AND a.kind = 'customer'
          WHERE e.created_at >= $1 AND e.created_at < $2
          GROUP BY 1, 2, 3`,
        [from, to],
      );
      await tx.query('UPDATE wallet_hourly_totals_state SET summarized_before = $1', [to]);
      return Math.round((to.getTime() - from.getTime()) / (60 * 60 * 1000));
    });
    hoursSummed += summed;
    if (summed === 0 || Date.now() >= stopAt) return hoursSummed;
    // The embedded database runs in this thread and answers without leaving the microtask
    // queue: without a turn of the event loop between days, no request would be served
    // until a first run over years of history had finished.
    await setImmediate();
  }
}

/** The job that keeps the hourly totals up to date; one instance runs it (platform/jobs.ts). */
export function hourlyTotalsJob(db: Database, log: FastifyBaseLogger): ScheduledJob {
  return {
    name: 'wallet-hourly-totals',
    intervalMs: hourlyTotalsIntervalMs,
    run: async (now) => {
      const hoursSummed = await summarizeClosedHours(db, now);
      if (hoursSummed === 0) return;
      log.info({ hoursSummed }, 'wallet hourly totals: hours summed');
      // PGlite runs no autovacuum: without this the new rows' pages are never marked
      // all-visible, and the reads visit every page instead of the key's index alone.
      if (db.kind === 'pglite') await db.query('VACUUM wallet_hourly_totals');
    },
  };
}

/**
 * Forgets the hourly totals from the hour of `postedAt` on, for entries back-dated into it
 * (the sandbox's history alone): the job sums those hours again. Takes the state row's lock,
 * so a run of the job summing them waits or is waited for.
 */
export async function unsumHoursFrom(tx: Queryable, postedAt: Date): Promise<void> {
  const state = await tx.query<{ summarized_before: Date | null }>(
    `UPDATE wallet_hourly_totals_state
        SET summarized_before = CASE WHEN summarized_before IS NOT NULL
                                   THEN least(summarized_before, date_trunc('hour', $1::timestamptz, 'UTC'))
                              END
      RETURNING summarized_before`,
    [postedAt],
  );
  const summarizedBefore = state.rows[0]?.summarized_before;
  if (summarizedBefore) {
    await tx.query('DELETE FROM wallet_hourly_totals WHERE hour >= $1', [summarizedBefore]);
  }
}
