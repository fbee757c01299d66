import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.ts';
import { createJobRunner, jobLeaseMs } from './jobs.ts';

let app: FastifyInstance;

useTestApp((opened) => {
  ({ app } = opened);
});

const hourMs = 60 * 60 * 1000;

function countingJob(name: string, runs: Date[], failures = { left: 0 }) {
  return {
    name,
    intervalMs: hourMs,
    run: async (now: Date) => {
      if (failures.left > 0) {
        failures.left -= 1;
        throw new Error('out of paper');
      }
      runs.push(now);
    },
  };
}

describe('the scheduled-jobs runner', () => {
  it('makes a new job due at a whole millisecond, so a Date taken in that millisecond runs it', async () => {
    const runner = createJobRunner(app.db, app.log);
    await runner.register(countingJob('to-the-millisecond', []));
    const due = await app.db.query<{ sub_millisecond: number; due_at: Date }>(
      `SELECT (extract(microseconds FROM next_run_at)::bigint % 1000)::int AS sub_millisecond,
              next_run_at AS due_at
         FROM scheduled_jobs WHERE name = 'to-the-millisecond'`,
    );
    expect(due.rows[0]?.sub_millisecond).toBe(0);
    // The moment it became due, as the runner's own clock writes it, runs it.
    expect(await runner.runDue(due.rows[0]?.due_at)).toEqual(['to-the-millisecond']);
  });

  it('runs a new job at once, then once per interval however often it is asked', async () => {
    const runner = createJobRunner(app.db, app.log);
    const runs: Date[] = [];
    await runner.register(countingJob('counting', runs));
    const start = new Date(Date.now() + 1_000);
    expect(await runner.runDue(start)).toEqual(['counting']);
    expect(await runner.runDue(start)).toEqual([]);
    expect(await runner.runDue(new Date(start.getTime() + hourMs - 1))).toEqual([]);
    expect(await runner.runDue(new Date(start.getTime() + hourMs))).toEqual(['counting']);
    expect(runs).toHaveLength(2);
  });

  it('catches up a missed run after a restart, once', async () => {
    const runs: Date[] = [];
    const before = createJobRunner(app.db, app.log);
    await before.register(countingJob('restarted', runs));
    const start = new Date(Date.now() + 1_000);
    await before.runDue(start);
    // The process stops for a day; a new one registers the same job and ticks once.
    const after = createJobRunner(app.db, app.log);
    await after.register(countingJob('restarted', runs));
    const dayLater = new Date(start.getTime() + 24 * hourMs);
    expect(await after.runDue(dayLater)).toEqual(['restarted']);
    expect(await after.runDue(dayLater)).toEqual([]);
    expect(runs).toHaveLength(2);
  });

  it('retries a failed run after its lease, and records the error meanwhile', async () => {
    const runner = createJobRunner(app.db, app.log);
    const runs: Date[] = [];
    await runner.register(countingJob('flaky', runs, { left: 1 }));
    const start = new Date(Date.now() + 1_000);
    await runner.runDue(start);
    const failed = await app.db.query<{ last_error: string }>(
      "SELECT last_error FROM scheduled_jobs WHERE name = 'flaky'",
    );
    expect(failed.rows[0]?.last_error).toContain('out of paper');
    expect(await runner.runDue(new Date(start.getTime() + jobLeaseMs - 1))).toEqual([]);
    expect(await runner.runDue(new Date(start.getTime() + jobLeaseMs))).toEqual(['flaky']);
    expect(runs).toHaveLength(1);
  });

  it('serves the KYC clean-up and the loan collection', async () => {
    const names = await app.db.query<{ name: string }>(
      'SELECT name FROM scheduled_jobs ORDER BY name',
    );
    expect(names.rows.map((row) => row.name)).toEqual(
      expect.arrayContaining(['kyc-document-cleanup', 'loan-collection']),
    );
  });
});
