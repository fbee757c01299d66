// The session look-up that spends a request under a customer's limit commits without
// waiting for the disk (ADR 024). That must stay its own: the connection goes back to the
// pool, and the next statement on it may move money, whose commit must wait.
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.ts';
import { createCustomer } from '../../test/customers.ts';
import { quickPay } from '../../test/transfers.ts';
import { customerLimits } from './rate-limits.ts';
import { findActiveSession } from './sessions.ts';

let app: FastifyInstance;

// One connection: the statement after the look-up runs where the look-up ran.
useTestApp(
  (opened) => {
    ({ app } = opened);
  },
  { poolSize: 1 },
);

async function synchronousCommit(): Promise<string> {
  const shown = await app.db.query<{ synchronous_commit: string }>('SHOW synchronous_commit');
  return shown.rows[0]?.synchronous_commit ?? '';
}

describe('the session look-up that spends a limited request', () => {
  it('leaves the connection committing durably for the money movement that follows', async () => {
    const sender = await createCustomer(app, { balance: '5.00' });
    const recipient = await createCustomer(app);
    // The test server may run without durable commits; this connection asks for them.
    await app.db.query('SET synchronous_commit = on');
    const sent = await quickPay(sender.client, {
      recipient: recipient.wallet.number,
      amount: '1.00',
    });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(await synchronousCommit()).toBe('on');
  });

  it('commits its own spending without waiting for the disk', async () => {
    const customer = await createCustomer(app);
    const token = customer.client.cookie?.split('=')[1] ?? '';
    const insideItsTransaction = await app.db.transaction(async (tx) => {
      await tx.query('SET LOCAL synchronous_commit = on');
      const found = await findActiveSession(tx, token, {
        name: 'test limit',
        max: 10,
        windowMs: customerLimits.quickPay.windowMs,
      });
      expect(found.session?.userId).toBe(customer.user.id);
      const shown = await tx.query<{ synchronous_commit: string }>('SHOW synchronous_commit');
      return shown.rows[0]?.synchronous_commit;
    });
    expect(insideItsTransaction).toBe('off');
  });
});
