// The housekeeping job removes rows that have done their work, and nothing else: read
// notifications and sent emails past their period, idempotency keys past 24 hours, attempt
// counters whose window is over. Unread notifications and unsent emails stay however old.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeEach, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.ts';
import { createCustomer } from '../../test/customers.ts';
import type { Database } from '../db/client.ts';
import { sha256Hex } from './crypto.ts';
import { sweepOldRows } from './housekeeping.ts';

let app: FastifyInstance;
let db: Database;
useTestApp((opened) => {
  ({ app, db } = opened);
});

const dayMs = 24 * 60 * 60 * 1000;
const periods = { readNotificationDays: 30, sentEmailDays: 7 };
const now = new Date();
const daysAgo = (days: number) => new Date(now.getTime() - days * dayMs);

async function addNotification(userId: string, text: string, readAt: Date | null, at: Date) {
  await db.query(
    `INSERT INTO notifications (id, user_id, kind, text, read_at, created_at)
     VALUES ($1, $2, 'test', $3, $4, $5)`,
    [randomUUID(), userId, text, readAt, at],
  );
}

async function addEmail(subject: string, sentAt: Date | null, at: Date) {
  await db.query(
    `INSERT INTO outbox_emails (id, to_address, subject, text_body, created_at, sent_at)
     VALUES ($1, 'someone@example.com', $2, 'Hello', $3, $4)`,
    [randomUUID(), subject, at, sentAt],
  );
}

async function addIdempotencyKey(key: string, at: Date) {
  await db.query(
    `INSERT INTO idempotency_keys (scope, key, request_hash, response_status, response_body, created_at)
     VALUES ('housekeeping-test', $1, $2, 201, '{}', $3)`,
    [key, sha256Hex(key), at],
  );
}

async function addAttemptCounter(name: string, windowStartedAt: Date) {
  await db.query(
    `INSERT INTO attempt_counters (key_hash, window_started_at, attempt_count) VALUES ($1, $2, 3)`,
    [sha256Hex(`housekeeping-test ${name}`), windowStartedAt],
  );
}

async function addSession(userId: string, label: string, expiresAt: Date) {
  await db.query(
    `INSERT INTO sessions (id, token_hash, user_id, user_agent, expires_at)
     VALUES ($1, $2, $3, $4, $5)`,
    [randomUUID(), sha256Hex(randomUUID()), userId, label, expiresAt],
  );
}

async function addStepUpCode(userId: string, expiresAt: Date) {
  await db.query(
    `INSERT INTO step_up_codes (id, user_id, purpose, code_hash, expires_at)
     VALUES ($1, $2, 'transfer', $3, $4)`,
    [randomUUID(), userId, sha256Hex(randomUUID()), expiresAt],
  );
}

async function credentialsOf(userId: string) {
  const sessions = await db.query<{ user_agent: string }>(
    'SELECT user_agent FROM sessions WHERE user_id = $1 ORDER BY user_agent',
    [userId],
  );
  const codes = await db.query<{ expires_at: Date }>(
    'SELECT expires_at FROM step_up_codes WHERE user_id = $1',
    [userId],
  );
  return {
    sessions: sessions.rows.map((row) => row.user_agent),
    stepUpCodeExpiries: codes.rows.map((row) => row.expires_at.getTime()),
  };
}

async function remaining() {
  const texts = await db.query<{ text: string }>(
    "SELECT text FROM notifications WHERE kind = 'test' ORDER BY text",
  );
  const subjects = await db.query<{ subject: string }>(
    "SELECT subject FROM outbox_emails WHERE to_address = 'someone@example.com' ORDER BY subject",
  );
  const keys = await db.query<{ key: string }>(
    "SELECT key FROM idempotency_keys WHERE scope = 'housekeeping-test' ORDER BY key",
  );
  const counters = await db.query<{ key_hash: string }>(
    'SELECT key_hash FROM attempt_counters WHERE key_hash = ANY($1)',
    [['old', 'new'].map((name) => sha256Hex(`housekeeping-test ${name}`))],
  );
  return {
    notifications: texts.rows.map((row) => row.text),
    emails: subjects.rows.map((row) => row.subject),
    idempotencyKeys: keys.rows.map((row) => row.key),
    attemptCounters: counters.rows.map((row) =>
      row.key_hash === sha256Hex('housekeeping-test old') ? 'old' : 'new',
    ),
  };
}

describe('housekeeping', () => {
  beforeEach(async () => {
    await db.query("DELETE FROM notifications WHERE kind = 'test'");
    await db.query("DELETE FROM outbox_emails WHERE to_address = 'someone@example.com'");
    await db.query("DELETE FROM idempotency_keys WHERE scope = 'housekeeping-test'");
  });

  it('removes what has done its work and keeps everything else', async () => {
    const customer = await createCustomer(app);
    const userId = customer.user.id;
    await addNotification(userId, 'read long ago', daysAgo(31), daysAgo(40));
    await addNotification(userId, 'read lately, made long ago', daysAgo(29), daysAgo(400));
    await addNotification(userId, 'unread, made long ago', null, daysAgo(400));
    await addEmail('sent long ago', daysAgo(8), daysAgo(8));
    await addEmail('sent lately', daysAgo(6), daysAgo(6));
    await addEmail('never sent, made long ago', null, daysAgo(100));
    await addIdempotencyKey('a day and an hour old', new Date(now.getTime() - 25 * 3_600_000));
    await addIdempotencyKey('an hour old', new Date(now.getTime() - 3_600_000));
    await addAttemptCounter('old', new Date(now.getTime() - 25 * 3_600_000));
    await addAttemptCounter('new', new Date(now.getTime() - 3_600_000));
    await db.query('DELETE FROM sessions WHERE user_id = $1', [userId]);
    await addSession(userId, 'expired half a year and a day ago', daysAgo(181));
    await addSession(userId, 'expired a week ago', daysAgo(7));
    await addStepUpCode(userId, daysAgo(2));
    await addStepUpCode(userId, new Date(now.getTime() - 3_600_000));

    const removed = await sweepOldRows(db, periods, now);

    expect(await remaining()).toEqual({
      notifications: ['read lately, made long ago', 'unread, made long ago'],
      emails: ['never sent, made long ago', 'sent lately'],
      idempotencyKeys: ['an hour old'],
      attemptCounters: ['new'],
    });
    expect(removed).toMatchObject({
      notifications: 1,
      outbox_emails: 1,
      idempotency_keys: expect.any(Number),
      attempt_counters: expect.any(Number),
    });
    expect(removed.idempotency_keys).toBeGreaterThanOrEqual(1);
    expect(await credentialsOf(userId)).toEqual({
      sessions: ['expired a week ago'],
      stepUpCodeExpiries: [now.getTime() - 3_600_000],
    });
  });

  it('removes many rows in batches, every one of them', async () => {
    for (let index = 0; index < 7; index += 1) {
      await addEmail(`old ${index}`, daysAgo(10), daysAgo(10));
    }
    const removed = await sweepOldRows(db, periods, now, 3);
    expect(removed.outbox_emails).toBe(7);
    expect((await remaining()).emails).toEqual([]);
  });

  it('vacuums what it swept on PGlite, which has no autovacuum worker, and leaves PostgreSQL to its own', async () => {
    await addEmail('old', daysAgo(10), daysAgo(10));
    const before = new Date(Date.now() - 1_000);
    await sweepOldRows(db, periods, now);
    const stats = await db.query<{ last_vacuum: Date | null }>(
      "SELECT last_vacuum FROM pg_stat_user_tables WHERE relname = 'outbox_emails'",
    );
    const lastVacuum = stats.rows[0]?.last_vacuum ?? null;
    const isVacuumedNow = lastVacuum !== null && lastVacuum >= before;
    expect(isVacuumedNow).toBe(db.kind === 'pglite');
  });

  it('runs hourly on the scheduled-jobs runner, with the configured periods', async () => {
    const customer = await createCustomer(app);
    await addNotification(
      customer.user.id,
      'read a year and a day ago',
      daysAgo(366),
      daysAgo(366),
    );
    await addNotification(
      customer.user.id,
      'read a year less a day ago',
      daysAgo(364),
      daysAgo(364),
    );
    expect(app.config.housekeeping.readNotificationDays).toBe(365);
    // Due a moment before `now`, whether or not it has run in this database already.
    await db.query(
      "UPDATE scheduled_jobs SET next_run_at = $1::timestamptz - interval '1 second' WHERE name = 'housekeeping'",
      [now],
    );
    expect(await app.jobs.runDue(now)).toContain('housekeeping');
    expect((await remaining()).notifications).toEqual(['read a year less a day ago']);
    const next = await db.query<{ next_run_at: Date }>(
      "SELECT next_run_at FROM scheduled_jobs WHERE name = 'housekeeping'",
    );
    expect(next.rows[0]?.next_run_at.getTime()).toBe(now.getTime() + 60 * 60 * 1000);
  });
});
