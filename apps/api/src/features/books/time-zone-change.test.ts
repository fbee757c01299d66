// The attacker's pass (issue #30): the institution's time zone changed between two closes.
import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { daysAgo, redateEntries } from '../../../test/books.ts';
import { createWallet, deposit } from '../../../test/factories.ts';
import type { Database } from '../../db/client.ts';
import { closeDueDays } from './service.ts';

let app: FastifyInstance;
let db: Database;

useTestApp(
  async (opened) => {
    ({ app, db } = opened);
  },
  { checksAfterEach: 'ledger' },
);

/** Sets when the entries made at or after `since` were made (the test's own database). */
async function dateEntries(since: Date, at: string): Promise<void> {
  await redateEntries(db, {
    set: '$2::timestamptz',
    where: 'created_at >= $1',
    params: [since, at],
  });
}

it('counts each line in one closed day when COFFER_TIMEZONE moves east between closes', async () => {
  const fourDaysAgo = await daysAgo(db, 4);
  const threeDaysAgo = await daysAgo(db, 3);
  const wallet = await createWallet(app.ledger);
  const since = new Date();
  await deposit(app.ledger, wallet, 10_000n);
  // 23:00 UTC four days ago: three days ago already in UTC+14.
  await dateEntries(since, `${fourDaysAgo}T23:00:00Z`);

  const utc = { db, ledger: app.ledger, config: { ...app.config, timeZone: 'UTC' } };
  const closedInUtc = await closeDueDays(utc, new Date(`${threeDaysAgo}T12:00:00Z`));
  expect(closedInUtc.at(-1)).toBe(fourDaysAgo);

  const east = {
    db,
    ledger: app.ledger,
    config: { ...app.config, timeZone: 'Pacific/Kiritimati' },
  };
  const closedEast = await closeDueDays(east, new Date());
  expect(closedEast[0]).toBe(threeDaysAgo);

  const closing = await db.query<{ day: string; closing_minor: bigint }>(
    `SELECT day::text AS day, closing_minor FROM book_close_balances
      WHERE account_kind = 'customer' ORDER BY day DESC LIMIT 1`,
  );
  // The wallet holds 100.00 once, not twice.
  expect(closing.rows[0]?.closing_minor).toBe(10_000n);
});
