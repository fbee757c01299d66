import { addDays } from '@coffer/contracts/schedule-dates';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { createCustomer, type TestCustomer } from '../../../test/customers.ts';
import { bankDestination } from '../../../test/payouts.ts';
import {
  occurrencesOf,
  runSchedules,
  savePayee,
  setTimeZone,
} from '../../../test/scheduled-payments.ts';
import type { Database } from '../../db/client.ts';
import { retryDelayMs } from './runner.ts';

let db: Database;
let app: FastifyInstance;

useTestApp(
  (opened) => {
    ({ app, db } = opened);
  },
  { checksAfterEach: 'money-out' },
);

const zone = 'Europe/Berlin';

/** A customer in Berlin with a balance and a saved Coffer payee; `today` is theirs. */
async function customerWithPayee(balance = '100.00') {
  const customer = await createCustomer(app, { balance });
  const friend = await createCustomer(app);
  const today = await setTimeZone(app, customer.user.id, zone);
  const payeeId = await savePayee(app, customer.user.id, 'Friend', {
    kind: 'coffer',
    recipient: friend.wallet.number,
  });
  return { customer, friend, today, payeeId };
}

function create(customer: TestCustomer, body: object) {
  return customer.client.post('/api/v1/scheduled-payments', body);
}

async function scheduleCount(userId: string): Promise<number> {
  const found = await db.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM scheduled_payments WHERE user_id = $1',
    [userId],
  );
  return found.rows[0]?.count ?? -1;
}

async function availableMinor(customer: TestCustomer): Promise<bigint> {
  return (await app.ledger.balance(customer.wallet.id)).availableMinor;
}

describe('refusing a schedule', () => {
  it('refuses day 31, an end before the start and a date in the past, with the reason', async () => {
    const { customer, today, payeeId } = await customerWithPayee();
    const start = addDays(today, 5);
    const monthly = { payeeId, amount: '10.00', frequency: 'monthly', startDate: start };

    const day31 = await create(customer, { ...monthly, dayOfMonth: 31 });
    expect(day31.statusCode).toBe(400);
    expect(day31.json().error.fields.dayOfMonth).toMatch(/Day 31 is not offered/);

    const endFirst = await create(customer, {
      ...monthly,
      dayOfMonth: 'last',
      endType: 'until',
      endDate: addDays(start, -1),
    });
    expect(endFirst.statusCode).toBe(400);
    expect(endFirst.json().error.fields.endDate).toBe(
      'The end date must be on or after the first payment date',
    );

    const past = await create(customer, {
      ...monthly,
      dayOfMonth: 1,
      startDate: addDays(today, -1),
    });
    expect(past.statusCode).toBe(400);
    expect(past.json().error.fields.startDate).toBe('Choose today or a later date');

    const once = await create(customer, {
      payeeId,
      amount: '10.00',
      frequency: 'once',
      startDate: addDays(today, -30),
    });
    expect(once.statusCode).toBe(400);

    for (const amount of ['0', '-5', '1.234', 'ten']) {
      const refused = await create(customer, { ...monthly, dayOfMonth: 1, amount });
      expect(refused.statusCode, amount).toBe(400);
    }
    const neverPays = await create(customer, {
      ...monthly,
      dayOfMonth: 'last',
      startDate: '2099-01-01',
      endType: 'until',
      endDate: '2099-01-30',
    });
    expect(neverPays.statusCode).toBe(400);
    expect(neverPays.json().error.message).toBe(
      'This schedule would never pay: no date of it is left.',
    );
    const noDate = await create(customer, { ...monthly, dayOfMonth: 1, startDate: '2027-02-30' });
    expect(noDate.statusCode).toBe(400);
    const noCount = await create(customer, { ...monthly, dayOfMonth: 1, endType: 'count' });
    expect(noCount.json().error.fields.occurrencesMax).toBe('Enter how many times to pay');
    expect(await scheduleCount(customer.user.id)).toBe(0);
  });

  it("refuses another customer's payee with 404 and saves nothing", async () => {
    const { today, payeeId } = await customerWithPayee();
    const other = await createCustomer(app);
    const refused = await create(other, {
      payeeId,
      amount: '10.00',
      frequency: 'once',
      startDate: addDays(today, 3),
    });
    expect(refused.statusCode).toBe(404);
    expect(await scheduleCount(other.user.id)).toBe(0);
  });
});

describe('managing a schedule', () => {
  it('lists upcoming dates, pauses, resumes, edits from the next occurrence and cancels', async () => {
    const { customer, today, payeeId } = await customerWithPayee();
    const created = await create(customer, {
      payeeId,
      amount: '12.50',
      reference: 'Rent',
      frequency: 'monthly',
      startDate: today,
      dayOfMonth: 'last',
      endType: 'count',
      occurrencesMax: 12,
    });
    expect(created.statusCode, created.body).toBe(201);
    const schedule = created.json();
    expect(schedule).toMatchObject({
      payeeNickname: 'Friend',
      kind: 'quick_pay',
      amountMinor: '1250',
      status: 'active',
      dayOfMonth: 'last',
      timeZone: zone,
    });
    expect(schedule.upcomingDates).toHaveLength(3);
    expect(schedule.upcomingDates[0] >= today).toBe(true);

    const listed = await customer.client.get('/api/v1/scheduled-payments');
    expect(listed.json().items.map((item: { id: string }) => item.id)).toEqual([schedule.id]);

    const path = `/api/v1/scheduled-payments/${schedule.id}`;
    const other = await createCustomer(app);
    expect((await other.client.post(`${path}/pause`, {})).statusCode).toBe(404);
    expect((await other.client.post(`${path}/cancel`, {})).statusCode).toBe(404);
    const edit = { payeeId, amount: '20.00', frequency: 'weekly', startDate: today, weekday: 3 };
    expect((await other.client.request('PATCH', path, edit)).statusCode).toBe(404);
    expect((await other.client.get('/api/v1/scheduled-payments')).json().items).toEqual([]);

    const paused = await customer.client.post(`${path}/pause`, {});
    expect(paused.json()).toMatchObject({ status: 'paused', upcomingDates: [] });
    const resumed = await customer.client.post(`${path}/resume`, {});
    expect(resumed.json().status).toBe('active');

    const edited = await customer.client.request('PATCH', path, edit);
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ frequency: 'weekly', weekday: 3, amountMinor: '2000' });

    const cancelled = await customer.client.post(`${path}/cancel`, {});
    expect(cancelled.json().status).toBe('cancelled');
    expect((await customer.client.get('/api/v1/scheduled-payments')).json().items).toEqual([]);
    expect((await customer.client.request('PATCH', path, edit)).statusCode).toBe(409);
  });
});

describe('running schedules', () => {
  it('pays a payment due today once, however often the runner runs', async () => {
    const { customer, friend, today, payeeId } = await customerWithPayee();
    const created = await create(customer, {
      payeeId,
      amount: '10.00',
      frequency: 'once',
      startDate: today,
    });
    const scheduleId = created.json().id;
    const now = new Date();
    await runSchedules(app, now);
    await runSchedules(app, now);
    await runSchedules(app, new Date(now.getTime() + retryDelayMs));
    expect(await occurrencesOf(app, scheduleId)).toMatchObject([
      { local_date: today, status: 'paid', attempts: 1 },
    ]);
    expect(await availableMinor(customer)).toBe(9000n);
    expect(await availableMinor(friend)).toBe(1000n);
  });

  it('pays nothing when a run dies after the payment and before the occurrence is marked, then pays once', async () => {
    const { customer, friend, today, payeeId } = await customerWithPayee();
    const created = await create(customer, {
      payeeId,
      amount: '10.00',
      frequency: 'once',
      startDate: today,
    });
    const scheduleId = created.json().id;
    // The crash: marking the occurrence paid fails after quick_pay has run in the same
    // transaction, as a process dying there would leave it.
    await db.query(`CREATE FUNCTION test_crash_on_paid() RETURNS trigger LANGUAGE plpgsql AS $$
                      BEGIN RAISE EXCEPTION 'the runner died'; END $$`);
    await db.query(`CREATE TRIGGER test_crash_on_paid BEFORE UPDATE ON scheduled_payment_occurrences
                      FOR EACH ROW WHEN (NEW.status = 'paid') EXECUTE FUNCTION test_crash_on_paid()`);
    const now = new Date();
    try {
      await expect(runSchedules(app, now)).rejects.toThrow(/the runner died/);
    } finally {
      await db.query('DROP TRIGGER test_crash_on_paid ON scheduled_payment_occurrences');
      await db.query('DROP FUNCTION test_crash_on_paid()');
    }
    expect(await occurrencesOf(app, scheduleId)).toMatchObject([{ status: 'pending' }]);
    expect(await availableMinor(customer)).toBe(10_000n);
    expect(await availableMinor(friend)).toBe(0n);

    await runSchedules(app, now);
    await runSchedules(app, now);
    expect(await occurrencesOf(app, scheduleId)).toMatchObject([{ status: 'paid' }]);
    expect(await availableMinor(customer)).toBe(9_000n);
    expect(await availableMinor(friend)).toBe(1_000n);
  });

  it('tells why a refused occurrence was not paid, retries it once, then marks it missed', async () => {
    const { customer, today, payeeId } = await customerWithPayee('5.00');
    const created = await create(customer, {
      payeeId,
      amount: '10.00',
      frequency: 'once',
      startDate: today,
    });
    const scheduleId = created.json().id;
    const now = new Date();
    await runSchedules(app, now);
    const [first] = await occurrencesOf(app, scheduleId);
    expect(first).toMatchObject({ status: 'retrying', attempts: 1 });
    expect(first?.reason).toBeTruthy();
    const told = await db.query<{ text: string }>(
      `SELECT text FROM notifications WHERE user_id = $1 AND kind = 'scheduled_payment_retrying'`,
      [customer.user.id],
    );
    expect(told.rows[0]?.text).toContain('could not be made');

    await runSchedules(app, new Date(now.getTime() + retryDelayMs));
    expect(await occurrencesOf(app, scheduleId)).toMatchObject([{ status: 'missed', attempts: 2 }]);
    expect(await availableMinor(customer)).toBe(500n);
  });

  it('pays a bill and asks for a withdrawal to a saved destination through their own services', async () => {
    const customer = await createCustomer(app, { level: 2, balance: '100.00' });
    const today = await setTimeZone(app, customer.user.id, zone);
    const billPayee = await savePayee(app, customer.user.id, 'Power', {
      kind: 'bill',
      category: 'electricity',
      billerReference: 'AC-1234',
    });
    const bankPayee = await savePayee(app, customer.user.id, 'My bank', {
      kind: 'payout',
      destination: bankDestination,
    });
    const once = { amount: '10.00', frequency: 'once', startDate: today };
    const bill = (await create(customer, { ...once, payeeId: billPayee })).json();
    const payout = (await create(customer, { ...once, payeeId: bankPayee })).json();
    expect([bill.kind, payout.kind]).toEqual(['bill', 'payout']);

    await runSchedules(app, new Date());
    expect(await occurrencesOf(app, bill.id)).toMatchObject([{ status: 'paid' }]);
    expect(await occurrencesOf(app, payout.id)).toMatchObject([{ status: 'paid' }]);
    const payouts = await customer.client.get('/api/v1/payouts');
    expect(payouts.json().items).toHaveLength(1);
    // 10.00 paid to the biller, 10.00 (plus any fee) held for the withdrawal.
    expect(await availableMinor(customer)).toBeLessThanOrEqual(8000n);
  });
});
