import type { ErrorCode } from '@coffer/contracts/errors';
import type { Queryable } from '../db/client.ts';
import { AppError } from './app-error.ts';
import { assert } from './assert.ts';
import { sha256Hex } from './crypto.ts';

/**
 * At most `max` failed attempts per client address in a fixed window of `windowMs`,
 * counted in PostgreSQL (`attempt_counters`) so that every API instance shares them.
 */
export type FailureLimit = { name: string; max: number; windowMs: number };

/** Counters whose window started longer ago than this are over, whatever their limit. */
export const attemptWindowMsMax = 24 * 60 * 60 * 1000;

/** One attempt spent: the count it made in its window, and how long that window has left. */
export type SpentAttempt = {
  keyHash: string;
  windowStartedAt: string;
  attemptCount: number;
  windowLeftMs: number;
};

/**
 * The statement that spends one attempt of each key `keyHashes` selects, under the window
 * and maximum its parameters name (SQL parameter references such as `$2`), answering a
 * row per attempt spent. For statements that spend as part of something else (the
 * session look-up of a limited route, platform/sessions.ts).
 */
export function spendAttemptStatement(sql: {
  keyHashes: string;
  windowMs: string;
  max: string;
}): string {
  const isWindowOver = `c.window_started_at <= now() - (${sql.windowMs} || ' milliseconds')::interval`;
  return `INSERT INTO attempt_counters AS c (key_hash, window_started_at, attempt_count)
     SELECT key_hash, now(), 1 FROM (${sql.keyHashes}) AS spending (key_hash)
     ON CONFLICT (key_hash) DO UPDATE SET
       window_started_at = CASE WHEN ${isWindowOver} THEN now() ELSE c.window_started_at END,
       attempt_count = CASE WHEN ${isWindowOver} THEN 1 ELSE c.attempt_count + 1 END
     WHERE ${isWindowOver} OR c.attempt_count < ${sql.max}
     RETURNING window_started_at::text, attempt_count,
       ceil(${sql.windowMs}::float8 - extract(epoch FROM now() - window_started_at) * 1000)::int AS window_left_ms`;
}

/**
 * The key of a subject's counter under a limit, as spendAttemptStatement's callers hash it
 * (quick_pay reads it too).
 */
export function attemptKeyHash(limit: FailureLimit, subject: string): string {
  return sha256Hex(`${limit.name}:${subject}`);
}

/**
 * Spends one attempt in one statement, before the attempt is made, so that parallel
 * requests (on any API instance) cannot all slip under the limit; null when none is left
 * in the window.
 */
export async function spendAttempt(
  db: Queryable,
  limit: FailureLimit,
  subject: string,
): Promise<SpentAttempt | null> {
  assert(limit.windowMs <= attemptWindowMsMax, 'a window longer than the purge keeps');
  const keyHash = attemptKeyHash(limit, subject);
  const spent = await db.query<{
    window_started_at: string;
    attempt_count: number;
    window_left_ms: number;
  }>(
    spendAttemptStatement({ keyHashes: 'SELECT $1', windowMs: '$2', max: '$3' }),
    [keyHash, String(limit.windowMs), limit.max],
    { preparedName: 'spend_attempt' },
  );
  const row = spent.rows[0];
  return row
    ? {
        keyHash,
        windowStartedAt: row.window_started_at,
        attemptCount: row.attempt_count,
        windowLeftMs: row.window_left_ms,
      }
    : null;
}

/** Gives an attempt back to the window it was spent in (a later window owes nothing). */
async function giveBackAttempt(db: Queryable, spent: SpentAttempt): Promise<void> {
  await db.query(
    `UPDATE attempt_counters SET attempt_count = attempt_count - 1
      WHERE key_hash = $1 AND window_started_at = $2::timestamptz AND attempt_count > 0`,
    [spent.keyHash, spent.windowStartedAt],
  );
}

/**
 * Runs `attempt` on one of the client's attempts under `limit`, refusing with
 * too_many_attempts when none is left. Only failures (errors with one of
 * `failureCodes`) keep their attempt: a success or any other refusal gives it back, so
 * an office of people signing in correctly behind one address is never refused.
 */
export async function countingFailures<T>(
  db: Queryable,
  limit: FailureLimit,
  clientAddress: string,
  failureCodes: readonly ErrorCode[],
  attempt: () => Promise<T>,
): Promise<T> {
  const spent = await spendAttempt(db, limit, clientAddress);
  if (!spent) throw new AppError('too_many_attempts');
  try {
    const result = await attempt();
    await giveBackAttempt(db, spent);
    return result;
  } catch (error) {
    const isFailure = error instanceof AppError && failureCodes.includes(error.code);
    if (!isFailure) await giveBackAttempt(db, spent);
    throw error;
  }
}

/** Whether the subject has an attempt left under `limit`, spending none. */
export async function isAttemptLeft(
  db: Queryable,
  limit: FailureLimit,
  subject: string,
): Promise<boolean> {
  const used = await db.query(
    `SELECT 1 FROM attempt_counters
      WHERE key_hash = $1 AND attempt_count >= $3
        AND window_started_at > now() - ($2 || ' milliseconds')::interval`,
    [attemptKeyHash(limit, subject), String(limit.windowMs), limit.max],
  );
  return used.rows.length === 0;
}

/**
 * Spends one of the subject's attempts under `limit` for good (every answer counts, not
 * only failures), refusing with too_many_attempts when none is left.
 */
export async function spendAttemptOrRefuse(
  db: Queryable,
  limit: FailureLimit,
  subject: string,
): Promise<void> {
  if (!(await spendAttempt(db, limit, subject))) throw new AppError('too_many_attempts');
}
