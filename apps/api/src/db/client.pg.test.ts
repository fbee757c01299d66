// What an API process sees when PostgreSQL drops its connections (a restart, a failover):
// the requests in flight fail, the process lives on, and the next ones work again.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/database.ts';
import type { Database } from './client.ts';

let db: Database;

beforeAll(async () => {
  db = await openTestDatabase({ poolSize: 2 });
});
afterAll(async () => {
  await db.close();
});

/** Ends the server side of every other connection to this database, as a restart does. */
async function terminateOtherConnections(): Promise<void> {
  await db.query(
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid()`,
  );
}

describe('the PostgreSQL connection pool', () => {
  it('fails a transaction whose connection the server ends, and lives on', async () => {
    const transaction = db.transaction(async (tx) => {
      await tx.query('SELECT 1');
      await terminateOtherConnections();
      // The client hears its connection end while the transaction holds it, between statements.
      await sleep(300);
      await tx.query('SELECT 1');
    });
    await expect(transaction).rejects.toThrow();
    const after = await db.query<{ one: number }>('SELECT 1 AS one');
    expect(after.rows).toEqual([{ one: 1 }]);
  });

  it('hears notifications again after the server ends its listening connection, and says so', async () => {
    const heard: string[] = [];
    let resumedCount = 0;
    const stop = await db.listen(
      'client_test',
      (payload) => heard.push(payload),
      () => {
        resumedCount += 1;
      },
    );
    await db.query(`SELECT pg_notify('client_test', 'first')`);
    await expect.poll(() => heard).toContain('first');
    expect(resumedCount).toBe(0);
    await terminateOtherConnections();
    // The listener reconnects a second after it notices.
    for (let waitedMs = 0; !heard.includes('back') && waitedMs < 10_000; waitedMs += 200) {
      await db.query(`SELECT pg_notify('client_test', 'back')`);
      await sleep(200);
    }
    expect(heard).toContain('back');
    // What was sent while it was away is lost: its listener is told it may have missed some.
    expect(resumedCount).toBe(1);
    await stop();
  });
});
