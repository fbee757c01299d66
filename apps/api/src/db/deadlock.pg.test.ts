// Two transactions that lock the same rows in opposite orders: PostgreSQL rolls one back
// with a deadlock. The request that ran it is answered as retryable (503, Retry-After),
// in the one error shape, never as a 500 (the attacker's pass on #30 found payout batches
// made in opposite orders doing this; any other path that does it gets the same answer).
import Fastify from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/database.ts';
import { registerErrorHandler } from '../platform/error-handler.ts';
import type { Database } from './client.ts';
import { isTransactionConflict } from './sql-errors.ts';

let db: Database;

beforeAll(async () => {
  db = await openTestDatabase({ poolSize: 4 });
  await db.query('CREATE TABLE IF NOT EXISTS deadlock_test (id int PRIMARY KEY, n int)');
  await db.query('INSERT INTO deadlock_test VALUES (1, 0), (2, 0) ON CONFLICT DO NOTHING');
});
afterAll(async () => {
  await db.query('DROP TABLE deadlock_test');
  await db.close();
});

/** Locks `first`, waits until the other transaction holds its first row too, locks `second`. */
function lockInOrder(first: number, second: number, bothHoldOne: Promise<void>, held: () => void) {
  return db.transaction(async (tx) => {
    await tx.query('UPDATE deadlock_test SET n = n + 1 WHERE id = $1', [first]);
    held();
    await bothHoldOne;
    await tx.query('UPDATE deadlock_test SET n = n + 1 WHERE id = $1', [second]);
  });
}

async function realDeadlock(): Promise<unknown> {
  let count = 0;
  let release: () => void = () => {};
  const bothHoldOne = new Promise<void>((resolve) => {
    release = resolve;
  });
  const held = () => {
    count += 1;
    if (count === 2) release();
  };
  const outcomes = await Promise.allSettled([
    lockInOrder(1, 2, bothHoldOne, held),
    lockInOrder(2, 1, bothHoldOne, held),
  ]);
  const failed = outcomes.filter((outcome) => outcome.status === 'rejected');
  expect(failed).toHaveLength(1);
  return (failed[0] as PromiseRejectedResult).reason;
}

it('answers a request PostgreSQL rolled back for a deadlock with a retryable 503', async () => {
  const error = await realDeadlock();
  expect(isTransactionConflict(error)).toBe(true);
  const counts = await db.query<{ total: number }>(
    'SELECT sum(n)::int AS total FROM deadlock_test',
  );
  // The winner's two updates; none of the loser's.
  expect(counts.rows[0]?.total).toBe(2);

  const app = Fastify({ logger: false });
  registerErrorHandler(app);
  app.get('/collides', async () => {
    throw error;
  });
  const reply = await app.inject({ method: 'GET', url: '/collides' });
  await app.close();
  expect(reply.statusCode).toBe(503);
  expect(reply.headers['retry-after']).toBe('1');
  expect(reply.json()).toMatchObject({
    error: {
      code: 'unavailable',
      message:
        'Coffer was busy with another change to the same records, and nothing was done. Please try again.',
    },
  });
});
