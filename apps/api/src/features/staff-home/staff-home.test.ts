import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { createCustomer } from '../../../test/customers.ts';
import { newIdempotencyKey, staffClient } from '../../../test/http.ts';
import { submitted } from '../../../test/kyc.ts';

let app: FastifyInstance;

// KYC documents are stored on disk: a directory of this file's own.
useTestApp(
  (opened) => {
    ({ app } = opened);
  },
  { env: { COFFER_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'coffer-staff-home-')) } },
);

describe('staff home', () => {
  it('counts the open items of every built queue, in the home’s order', async () => {
    const support = await staffClient(app, 'support');
    const countsOf = async () =>
      Object.fromEntries(
        (await support.client.get('/api/v1/admin/queues'))
          .json()
          .items.map((item: { queue: string; openCount: number }) => [item.queue, item.openCount]),
      );
    expect(Object.keys(await countsOf())).toEqual([
      'kyc',
      'payouts',
      'loans',
      'cards',
      'deposits',
      'disputes',
      'support',
    ]);
    const before = await countsOf();
    const customer = await createCustomer(app);
    await customer.client.post('/api/v1/support/messages', { body: 'Help' });
    await submitted(customer.client);
    await customer.client.post('/api/v1/disputes', {
      kind: 'general',
      amount: '1.00',
      recipientAccountNumber: '1234567890',
      problemType: 'other',
      description: 'Lost',
    });
    await support.client.post(
      `/api/v1/admin/users/${customer.user.id}/deposits`,
      { amount: '1.00', reason: 'Wire' },
      { 'idempotency-key': newIdempotencyKey() },
    );
    const after = await countsOf();
    expect(after).toEqual({
      ...before,
      kyc: before.kyc + 1,
      deposits: before.deposits + 1,
      disputes: before.disputes + 1,
      support: before.support + 1,
    });
  });
});
