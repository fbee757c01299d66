import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/app.ts';
import { createCustomer } from '../../../test/customers.ts';
import { openTestDatabase } from '../../../test/database.ts';
import { staffClient } from '../../../test/http.ts';
import type { Database } from '../../db/client.ts';

let db: Database;
let app: FastifyInstance;

beforeAll(async () => {
  db = await openTestDatabase();
  app = await buildTestApp(db);
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await db.close();
});

describe('staff home', () => {
  it('counts the open items of every built queue, in the home’s order', async () => {
    const support = await staffClient(app, 'support');
    const countsOf = async () =>
      Object.fromEntries(
        (await support.client.get('/api/v1/admin/queues'))
          .json()
          .items.map((item: { queue: string; openCount: number }) => [item.queue, item.openCount]),
      );
    expect(Object.keys(await countsOf())).toEqual(['payouts', 'deposits', 'disputes', 'support']);
    const before = await countsOf();
    const customer = await createCustomer(app);
    await customer.client.post('/api/v1/support/messages', { body: 'Help' });
    await customer.client.post('/api/v1/disputes', {
      amount: '1.00',
      recipientAccountNumber: '1234567890',
      problemType: 'other',
      description: 'Lost',
    });
    await support.client.post(
      `/api/v1/admin/users/${customer.user.id}/deposits`,
      { amount: '1.00', reason: 'Wire' },
      { 'idempotency-key': `staff-home-${Date.now()}` },
    );
    const after = await countsOf();
    expect(after).toEqual({
      ...before,
      deposits: before.deposits + 1,
      disputes: before.disputes + 1,
      support: before.support + 1,
    });
  });
});
