// Many Quick Pays at once through the real routes: true concurrency needs PostgreSQL.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { addWallet, createCustomer, type TestCustomer } from '../../../test/customers.ts';
import { newIdempotencyKey } from '../../../test/http.ts';
import { quickPay } from '../../../test/transfers.ts';
import type { Database } from '../../db/client.ts';
import type { AccountId } from '../../ledger/ledger.ts';

let db: Database;
let app: FastifyInstance;

// Hundreds of requests from one customer at once: far above the per-customer limit.
useTestApp(
  (opened) => {
    ({ app, db } = opened);
  },
  {
    env: { COFFER_MONEY_REQUESTS_PER_MINUTE: '100000' },
    poolSize: 30,
    checksAfterEach: 'money-out',
  },
);

/** Counts answers by status and error code; a 5xx (a deadlock, a bug) fails the test. */
function outcomes(responses: LightMyRequestResponse[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const response of responses) {
    expect(response.statusCode, response.body).toBeLessThan(500);
    const key = response.statusCode === 201 ? 'sent' : response.json().error.code;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

async function balanceMinor(walletId: AccountId): Promise<bigint> {
  return (await app.ledger.balance(walletId)).balanceMinor;
}

async function totalMinor(customers: TestCustomer[]): Promise<bigint> {
  let total = 0n;
  for (const customer of customers) total += await balanceMinor(customer.wallet.id);
  return total;
}

async function sentByTransfers(senderUserId: string): Promise<bigint> {
  const found = await db.query<{ total: bigint }>(
    'SELECT coalesce(sum(amount_minor), 0)::bigint AS total FROM transfers WHERE sender_user_id = $1',
    [senderUserId],
  );
  return found.rows[0]?.total ?? 0n;
}

describe('Quick Pay under concurrency on PostgreSQL', () => {
  it('never overdraws one wallet paying many recipients at once', async () => {
    const sender = await createCustomer(app, { balance: '50.00', level: 3 });
    const recipients = await Promise.all(Array.from({ length: 5 }, () => createCustomer(app)));
    const responses = await Promise.all(
      Array.from({ length: 120 }, (_, index) =>
        quickPay(sender.client, {
          recipient: recipients[index % recipients.length]?.wallet.number ?? '',
          amount: '1.00',
        }),
      ),
    );
    expect(outcomes(responses)).toEqual({ sent: 50, insufficient_funds: 70 });
    expect(await balanceMinor(sender.wallet.id)).toBe(0n);
    expect(await totalMinor([sender, ...recipients])).toBe(5000n);
    expect(await sentByTransfers(sender.user.id)).toBe(5000n);
  });

  it('pays in both directions between two wallets without deadlocking or losing money', async () => {
    const alice = await createCustomer(app, { balance: '30.00', level: 3 });
    const bob = await createCustomer(app, { balance: '30.00', level: 3 });
    const responses = await Promise.all(
      Array.from({ length: 80 }, (_, index) =>
        index % 2 === 0
          ? quickPay(alice.client, { recipient: bob.wallet.number, amount: '1.00' })
          : quickPay(bob.client, { recipient: alice.wallet.number, amount: '1.00' }),
      ),
    );
    const counts = outcomes(responses);
    expect(
      Object.keys(counts).filter((key) => key !== 'sent' && key !== 'insufficient_funds'),
    ).toEqual([]);
    expect(await totalMinor([alice, bob])).toBe(6000n);
    const aliceNetMinor =
      (await sentByTransfers(bob.user.id)) - (await sentByTransfers(alice.user.id));
    expect(await balanceMinor(alice.wallet.id)).toBe(3000n + aliceNetMinor);
  });

  it('applies each idempotency key once however many times it is sent at once', async () => {
    const sender = await createCustomer(app, { balance: '100.00', level: 3 });
    const recipient = await createCustomer(app);
    const keys = Array.from({ length: 15 }, () => newIdempotencyKey());
    const body = { recipient: recipient.wallet.number, amount: '2.00' };
    const responses = await Promise.all(
      keys.flatMap((key) => Array.from({ length: 4 }, () => quickPay(sender.client, body, key))),
    );
    expect(outcomes(responses)).toEqual({ sent: 60 });
    for (const [index, key] of keys.entries()) {
      const answers = responses.slice(index * 4, index * 4 + 4);
      expect(new Set(answers.map((answer) => answer.json().entryId)).size, key).toBe(1);
    }
    expect(await sentByTransfers(sender.user.id)).toBe(3000n);
    expect(await balanceMinor(recipient.wallet.id)).toBe(3000n);
  });

  it('never overdraws a chosen wallet that is not the main one when two sends race', async () => {
    const sender = await createCustomer(app, { country: 'DE', balance: '100.00', level: 3 });
    const yen = await addWallet(app, sender, 'JPY', '1000');
    const recipient = await createCustomer(app, { country: 'JP' });
    const send = () =>
      quickPay(sender.client, {
        recipient: recipient.wallet.number,
        amount: '600',
        walletId: yen.id,
      });
    expect(outcomes(await Promise.all([send(), send()]))).toEqual({
      sent: 1,
      insufficient_funds: 1,
    });
    // And many at once: the rest of the wallet, 100 at a time, and no more.
    const many = await Promise.all(
      Array.from({ length: 30 }, () =>
        quickPay(sender.client, {
          recipient: recipient.wallet.number,
          amount: '100',
          walletId: yen.id,
        }),
      ),
    );
    expect(outcomes(many)).toEqual({ sent: 4, insufficient_funds: 26 });
    expect(await balanceMinor(yen.id)).toBe(0n);
    expect(await balanceMinor(recipient.wallet.id)).toBe(1000n);
    expect(await balanceMinor(sender.wallet.id)).toBe(10_000n);
  });

  it('keeps a level-1 customer within the daily limit when payments race', async () => {
    const sender = await createCustomer(app, { balance: '2000.00' });
    const recipient = await createCustomer(app);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        quickPay(sender.client, { recipient: recipient.wallet.number, amount: '100.00' }),
      ),
    );
    expect(outcomes(responses)).toEqual({ sent: 5, daily_limit_exceeded: 15 });
    expect(await balanceMinor(recipient.wallet.id)).toBe(50_000n);
  });
});
