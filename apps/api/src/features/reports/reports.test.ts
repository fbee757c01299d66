import type { reportsSchema } from '@coffer/contracts/reports';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod/mini';
import { useTestApp } from '../../../test/app.ts';
import { daysAgo, moveEntriesBack } from '../../../test/books.ts';
import { createCustomer, type TestCustomer } from '../../../test/customers.ts';
import { staffClient, type TestClient } from '../../../test/http.ts';
import { submitted } from '../../../test/kyc.ts';
import { quickPay } from '../../../test/transfers.ts';
import type { Database } from '../../db/client.ts';

let app: FastifyInstance;
let db: Database;
let support: TestClient;

useTestApp(
  async (opened) => {
    ({ app, db } = opened);
    support = (await staffClient(app, 'support')).client;
  },
  { checksAfterEach: 'ledger' },
);

function reportsPath(query: Record<string, string>): string {
  return `/api/v1/admin/reports?${new URLSearchParams(query)}`;
}

describe('the reports', () => {
  let payer: TestCustomer;
  let twoDaysAgo: string;
  let today: string;

  beforeAll(async () => {
    twoDaysAgo = await daysAgo(db, 2);
    today = await daysAgo(db, 0);
    // 250.00 in two days ago, then 100.00 in and 12.34 by Quick Pay today.
    const since = new Date();
    payer = await createCustomer(app, { balance: '250.00' });
    await moveEntriesBack(db, since, 2);
    const payee = await createCustomer(app, { balance: '100.00' });
    const paid = await quickPay(payer.client, { recipient: payee.wallet.number, amount: '12.34' });
    expect(paid.statusCode, paid.body).toBe(201);
    // One verification approved, one waiting in the KYC queue when the queues are read.
    const approved = await submitted(payer.client);
    const approval = await support.post(`/api/v1/admin/kyc/${approved}/approve`, {});
    expect(approval.statusCode, approval.body).toBe(200);
    await submitted(payee.client);
    await app.jobs.runDue();
  });

  async function report(query: Record<string, string>): Promise<z.input<typeof reportsSchema>> {
    const response = await support.get(reportsPath(query));
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  it('gives each day of the period its volumes by kind in the chosen currency', async () => {
    const { days, timeZone } = await report({ from: twoDaysAgo, to: today, currency: 'USD' });
    expect(timeZone).toBe('UTC');
    expect(days.map((day) => day.date)).toEqual([twoDaysAgo, await daysAgo(db, 1), today]);
    expect(days.map((day) => [day.volumesMinor.deposit, day.volumesMinor.transfer])).toEqual([
      ['25000', '0'],
      ['0', '0'],
      ['10000', '1234'],
    ]);
    expect(days[2]?.volumesMinor).toMatchObject({ payout: '0', card_purchase: '0' });
  });

  it('counts new customers and approved verifications per day', async () => {
    const { days } = await report({ from: twoDaysAgo, to: today, currency: 'USD' });
    // Both signed up today: moving the deposit back moved no one's sign-up.
    expect(days.map((day) => [day.newCustomers, day.verificationsApproved])).toEqual([
      [0, 0],
      [0, 0],
      [2, 1],
    ]);
  });

  it('shows the queues as read today, and no sizes for days nobody read them', async () => {
    const { days } = await report({ from: twoDaysAgo, to: today, currency: 'USD' });
    expect(days[0]?.openQueues).toBeNull();
    expect(days[2]?.openQueues).toMatchObject({ kyc: 1, deposits: 0 });
  });

  it('keeps a day’s last reading of the queues', async () => {
    const customer = await createCustomer(app);
    await submitted(customer.client);
    // A second back: the runner's clock has milliseconds, PostgreSQL's microseconds, so a
    // job due "now()" may not yet be due at a `new Date()` taken within the same millisecond.
    await db.query(
      "UPDATE scheduled_jobs SET next_run_at = now() - interval '1 second' WHERE name = 'reports-queue-sizes'",
    );
    await app.jobs.runDue();
    const { days } = await report({ from: today, to: today, currency: 'USD' });
    expect(days[0]?.openQueues).toMatchObject({ kyc: 2 });
  });

  it('shows nothing moved in a currency nobody used', async () => {
    const { days } = await report({ from: twoDaysAgo, to: today, currency: 'EUR' });
    expect(days.every((day) => Object.values(day.volumesMinor).every((v) => v === '0'))).toBe(true);
  });

  it('refuses a period that ends before it starts, longer than 366 days, or a bad currency', async () => {
    const refused: Record<string, string>[] = [
      { from: today, to: twoDaysAgo, currency: 'USD' },
      { from: '2024-01-01', to: '2025-01-01', currency: 'USD' },
      { from: today, to: today, currency: 'XYZ' },
      { from: '2025-02-30', to: today, currency: 'USD' },
      { from: today, to: today },
    ];
    for (const query of refused) {
      const response = await support.get(reportsPath(query));
      expect(response.statusCode, JSON.stringify(query)).toBe(400);
      expect(response.json().error.code).toBe('validation_failed');
    }
    // 366 days, a leap year's, is one report.
    expect(
      (await support.get(reportsPath({ from: '2024-01-01', to: '2024-12-31', currency: 'USD' })))
        .statusCode,
    ).toBe(200);
  });

  it('refuses customers (as no such page) and visitors', async () => {
    const query = { from: today, to: today, currency: 'USD' };
    const asCustomer = await payer.client.get(reportsPath(query));
    expect(asCustomer.statusCode).toBe(404);
    const asVisitor = await app.inject({ method: 'GET', url: reportsPath(query) });
    expect(asVisitor.statusCode).toBe(401);
  });
});
