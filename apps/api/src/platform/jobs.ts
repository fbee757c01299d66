import { setImmediate } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client.ts';

/**
 * A piece of work the app does on a schedule (collecting due loan instalments, removing
 * expired KYC documents). `run` gets the moment the run was claimed for, so a test can
 * run a job "next month".
 */
export type ScheduledJob = {
  name: string;
  intervalMs: number;
  run: (now: Date) => Promise<void>;
};

/**
 * A claimed run that has not finished after this long (its process died) may be claimed
 * again: no run of ours takes nearly this long.
 */
export const jobLeaseMs = 10 * 60 * 1000;
const errorTextLengthMax = 1_000;

/**
 * The one scheduled-jobs mechanism (ADR 015). Each job is a row in `scheduled_jobs` whose
 * `next_run_at` says when it is due. An instance claims a due job by moving `next_run_at`
 * a lease ahead in one statement (`FOR UPDATE SKIP LOCKED`), so of several API instances
 * exactly one runs it; when the run ends the next run is set an interval after its start.
 * Time lives in the database, not in a timer: a job missed while no instance was running
 * is due at the first tick after start-up, and a run cut short by a crash is claimed again
 * once its lease ends. PGlite and PostgreSQL run the same SQL.
 */
export function createJobRunner(
  db: Database,
  log: FastifyBaseLogger,
  /** Told of every failed run of this process (the metrics count them). */
  onFailure: (jobName: string) => void = () => {},
) {
  const jobs = new Map<string, ScheduledJob>();

  async function claim(name: string, now: Date): Promise<boolean> {
    const claimed = await db.query(
      `UPDATE scheduled_jobs SET next_run_at = $2::timestamptz + make_interval(secs => $3::bigint / 1000.0),
              last_started_at = $2
        WHERE name = (SELECT name FROM scheduled_jobs WHERE name = $1 AND next_run_at <= $2
                      FOR UPDATE SKIP LOCKED)
        RETURNING name`,
      [name, now, jobLeaseMs],
    );
    return claimed.rows.length > 0;
  }

  async function finish(job: ScheduledJob, startedAt: Date, error: unknown): Promise<void> {
    const nextRunAt = error ? null : new Date(startedAt.getTime() + job.intervalMs);
    await db.query(
      `UPDATE scheduled_jobs SET next_run_at = coalesce($2, next_run_at), last_finished_at = now(),
              last_error = $3 WHERE name = $1`,
      [job.name, nextRunAt, error ? String(error).slice(0, errorTextLengthMax) : null],
    );
  }

  /**
   * Runs every registered job that is due at `now` and that no other instance claimed;
   * only those named in `only` when it is given (a test running one job "tomorrow").
   */
  async function runDue(now = new Date(), only?: readonly string[]): Promise<string[]> {
    const ran: string[] = [];
    for (const job of jobs.values()) {
      if (only && !only.includes(job.name)) continue;
      if (!(await claim(job.name, now))) continue;
      let failure: unknown = null;
      try {
        await job.run(now);
      } catch (error) {
        failure = error ?? 'failed';
        log.error({ err: error, job: job.name }, 'scheduled job failed');
        onFailure(job.name);
      }
      await finish(job, now, failure);
      ran.push(job.name);
      // The embedded database runs in this thread and answers inside the microtask queue:
      // without a turn of the event loop between jobs, a start with every job due would
      // serve no request until the last had finished.
      await setImmediate();
    }
    return ran;
  }

  return {
    /**
     * Adds a job; a new one is due at once, an existing row keeps its next run. "At once"
     * is now to the millisecond: the runner's clock is a JavaScript Date, and a job due at
     * PostgreSQL's microseconds would not yet be due at a Date taken in the same millisecond.
     */
    async register(job: ScheduledJob): Promise<void> {
      jobs.set(job.name, job);
      await db.query(
        `INSERT INTO scheduled_jobs (name, interval_ms, next_run_at)
         VALUES ($1, $2, date_trunc('milliseconds', now()))
         ON CONFLICT (name) DO UPDATE SET interval_ms = EXCLUDED.interval_ms`,
        [job.name, job.intervalMs],
      );
    },

    runDue,

    /** Looks for due jobs now and every `tickMs`, until the returned function stops it. */
    start(tickMs: number): () => Promise<void> {
      let running: Promise<unknown> = Promise.resolve();
      const tick = () => {
        running = running
          .then(() => runDue())
          .catch((error: unknown) => log.error({ err: error }, 'scheduled jobs tick failed'));
      };
      const timer = setInterval(tick, tickMs);
      timer.unref();
      tick();
      return async () => {
        clearInterval(timer);
        await running;
      };
    },
  };
}

export type JobRunner = ReturnType<typeof createJobRunner>;
