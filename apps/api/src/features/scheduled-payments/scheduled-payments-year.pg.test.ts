// A year of monthly occurrences under a controlled clock, with two runners at once: true
// concurrency (two transactions racing for the same occurrence) needs PostgreSQL.
import { addDays } from '@coffer/contracts/schedule-dates';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { createCustomer, type TestCustomer } from '../../../test/customers.ts';
import {
  occurrencesOf,
  runSchedules,
  runSlowly,
  savePayee,
  setTimeZone,
} from '../../../test/scheduled-payments.ts';
import type { Database } from '../../db/client.ts';

let db: Database;
let app: FastifyInstance;

useTestApp(
  (opened) => {
    ({ app, db } = opened);
  },
  { poolSize: 10, checksAfterEach: 'money-out' },
);

const zone = 'Europe/Berlin';

async function balanceMinor(customer: TestCustomer): Promise<bigint> {
  return (await app.ledger.balance(customer.wallet.id)).balanceMinor;
}

async function setFrozen(customer: TestCustomer, isFrozen: boolean): Promise<void> {
  await db.query(
    isFrozen
      ? "UPDATE users SET frozen_at = now(), frozen_reason = 'Frozen by the test' WHERE id = $1"
      : 'UPDATE users SET frozen_at = NULL, frozen_reason = NULL WHERE id = $1',
    [customer.user.id],
  );
}

/**
 * Three runners at the same claimed moment, as API instances would be: two at once, and a
 * slow one that read the due occurrences before they paid them.
 */
async function runTwice(now: Date): Promise<void> {
  await runSlowly(app, now, async () => {
    await Promise.all([runSchedules(app, now), runSchedules(app, now)]);
  });
}

async function quickPayEntriesOf(customer: TestCustomer): Promise<number> {
  const found = await db.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM transfers WHERE sender_user_id = $1',
    [customer.user.id],
  );
  return found.rows[0]?.count ?? -1;
}

describe('a year of monthly scheduled payments', () => {
  it('pays every occurrence exactly once or marks it missed, with two runners and a clock that jumps', async () => {
    const sender = await createCustomer(app, { balance: '1000.00' });
    const landlord = await createCustomer(app);
    await setTimeZone(app, sender.user.id, zone);
    const payeeId = await savePayee(app, sender.user.id, 'Landlord', {
      kind: 'coffer',
      recipient: landlord.wallet.number,
    });
    const schedule = async (dayOfMonth: number | 'last') => {
      const created = await sender.client.post('/api/v1/scheduled-payments', {
        payeeId,
        amount: '20.00',
        frequency: 'monthly',
        startDate: '2027-01-01',
        dayOfMonth,
        endType: 'until',
        endDate: '2027-12-31',
      });
      expect(created.statusCode, created.body).toBe(201);
      return created.json().id as string;
    };
    const lastDayId = await schedule('last');
    const day30Id = await schedule(30);

    // The ledger dates entries by the database clock, so all 22 payments count against
    // one real day's Quick Pay limit (500.00 at level 1): 20.00 each stays under it.
    // Every day of 2027 at noon UTC (afternoon in Berlin), and five hours later for
    // retries. May's payments meet a frozen wallet twice (missed); August's once (paid
    // at the retry).
    for (let day = '2027-01-01'; day <= '2027-12-31'; day = addDays(day, 1)) {
      const isMay = day === '2027-05-30' || day === '2027-05-31';
      const isAugust = day === '2027-08-30' || day === '2027-08-31';
      if (isMay || isAugust) await setFrozen(sender, true);
      await runTwice(new Date(`${day}T12:00:00Z`));
      if (isAugust) await setFrozen(sender, false);
      await runTwice(new Date(`${day}T17:00:00Z`));
      if (isMay) await setFrozen(sender, false);
    }
    // The clock jumps back to March and forward to next year: nothing is paid again.
    await runTwice(new Date('2027-03-31T12:00:00Z'));
    await runTwice(new Date('2028-01-15T12:00:00Z'));

    const lastDay = await occurrencesOf(app, lastDayId);
    expect(lastDay.map((occurrence) => occurrence.local_date)).toEqual([
      '2027-01-31',
      '2027-02-28',
      '2027-03-31',
      '2027-04-30',
      '2027-05-31',
      '2027-06-30',
      '2027-07-31',
      '2027-08-31',
      '2027-09-30',
      '2027-10-31',
      '2027-11-30',
      '2027-12-31',
    ]);
    const day30 = await occurrencesOf(app, day30Id);
    expect(day30.map((occurrence) => occurrence.local_date).slice(0, 3)).toEqual([
      '2027-01-30',
      '2027-02-28',
      '2027-03-30',
    ]);
    expect(day30).toHaveLength(12);

    for (const occurrences of [lastDay, day30]) {
      const may = occurrences.find((occurrence) => occurrence.local_date.startsWith('2027-05'));
      const august = occurrences.find((occurrence) => occurrence.local_date.startsWith('2027-08'));
      expect(may).toMatchObject({ status: 'missed', attempts: 2 });
      expect(may?.reason).toBeTruthy();
      expect(august).toMatchObject({ status: 'paid', attempts: 2 });
      const others = occurrences.filter((occurrence) => occurrence !== may);
      expect(others.every((occurrence) => occurrence.status === 'paid')).toBe(true);
    }

    // 11 paid of each schedule's 12: money left one wallet and reached the other, once each.
    const paidCount = 22;
    expect(await quickPayEntriesOf(sender)).toBe(paidCount);
    expect(await balanceMinor(sender)).toBe(100_000n - BigInt(paidCount) * 2_000n);
    expect(await balanceMinor(landlord)).toBe(BigInt(paidCount) * 2_000n);
    const notified = await db.query<{ kind: string }>(
      `SELECT kind FROM notifications WHERE user_id = $1 AND kind LIKE 'scheduled_payment_%'`,
      [sender.user.id],
    );
    // May: told twice (retrying, then missed) per schedule; August: once per schedule.
    expect(notified.rows.filter((row) => row.kind === 'scheduled_payment_missed')).toHaveLength(2);
    expect(notified.rows.filter((row) => row.kind === 'scheduled_payment_retrying')).toHaveLength(
      4,
    );
  });
});
