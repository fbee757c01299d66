// Many payouts, sends and rejects at once through the real routes: true concurrency needs
// PostgreSQL.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { createCustomer, type TestCustomer } from '../../../test/customers.ts';
import { newIdempotencyKey, staffClient } from '../../../test/http.ts';
import { bankDestination, plantStepUpCodes, requestPayout } from '../../../test/payouts.ts';
import type { Database } from '../../db/client.ts';

let db: Database;
let app: FastifyInstance;
let admin: Awaited<ReturnType<typeof staffClient>>;

// Hundreds of requests from one customer at once: far above the per-customer limit.
useTestApp(
  async (opened) => {
    ({ app, db } = opened);
    admin = await staffClient(app, 'admin');
  },
  {
    env: { COFFER_MONEY_REQUESTS_PER_MINUTE: '100000' },
    poolSize: 30,
    checksAfterEach: 'money-out',
  },
);

const stepUpCode = '482913';

/** Counts answers by status and error code; a 5xx (a deadlock, a bug) fails the test. */
function outcomes(responses: LightMyRequestResponse[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const response of responses) {
    expect(response.statusCode, response.body).toBeLessThan(500);
    const key = response.statusCode < 300 ? 'ok' : response.json().error.code;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

function requestPayouts(customer: TestCustomer, count: number, amount: string) {
  return Promise.all(
    Array.from({ length: count }, () =>
      requestPayout(
        customer.client,
        { ...bankDestination, amount, stepUpCode },
        newIdempotencyKey(),
      ),
    ),
  );
}

const chainCount = 4;
const chainLength = 12;

/**
 * Payouts one after another: each reads the newest unspent code only after the
 * one before it has spent its own, so a chain is refused for want of money, not of codes.
 */
async function requestPayoutsInChain(
  customer: TestCustomer,
  count: number,
  amount: string,
): Promise<LightMyRequestResponse[]> {
  const responses: LightMyRequestResponse[] = [];
  for (let index = 0; index < count; index += 1) {
    responses.push(
      await requestPayout(
        customer.client,
        { ...bankDestination, amount, stepUpCode },
        newIdempotencyKey(),
      ),
    );
  }
  return responses;
}

async function payoutCounts(userId: string): Promise<Record<string, bigint>> {
  const found = await db.query<{ status: string; count: bigint; total: bigint }>(
    `SELECT status, count(*)::bigint AS count, sum(amount_minor)::bigint AS total
       FROM payouts WHERE user_id = $1 GROUP BY status`,
    [userId],
  );
  return Object.fromEntries(
    found.rows.flatMap((row) => [
      [row.status, row.count],
      [`${row.status}Minor`, row.total],
    ]),
  );
}

describe('payouts under concurrency on PostgreSQL', () => {
  it('holds the whole balance once when 100 payouts of it arrive at once', async () => {
    const customer = await createCustomer(app, { level: 2, balance: '1000.00' });
    // A valid code for every request, so only the balance can refuse them.
    await plantStepUpCodes(app, {
      userId: customer.user.id,
      code: stepUpCode,
      count: 100,
      amount: '1000.00',
    });

    const responses = await requestPayouts(customer, 100, '1000.00');

    expect(outcomes(responses)).toEqual({ ok: 1, insufficient_funds: 99 });
    const balance = await app.ledger.balance(customer.wallet.id);
    expect(balance).toMatchObject({ balanceMinor: 100000n, heldMinor: 100000n });
    expect(await payoutCounts(customer.user.id)).toEqual({
      pending: 1n,
      pendingMinor: 100000n,
    });
    const holds = await db.query<{ count: bigint }>(
      "SELECT count(*)::bigint AS count FROM holds WHERE account_id = $1 AND status = 'active'",
      [customer.wallet.id],
    );
    expect(holds.rows[0]?.count).toBe(1n);
  });

  it('never overdraws while payouts, sends and rejects race each other', async () => {
    const customer = await createCustomer(app, { balance: '300.00', level: 3 });
    // The newest live code is tried first: the 20.00 codes go in once the 10.00 ones are spent.
    await plantStepUpCodes(app, {
      userId: customer.user.id,
      code: stepUpCode,
      count: 20,
      amount: '10.00',
    });
    const pending = await requestPayoutsInChain(customer, 20, '10.00');
    const pendingIds = pending.map((response) => {
      expect(response.statusCode, response.body).toBe(201);
      return response.json().id as string;
    });

    const [toSend, toReject] = [pendingIds.slice(0, 10), pendingIds.slice(10)];
    const decide = (payoutId: string, decision: 'send' | 'reject') =>
      admin.client.post(
        `/api/v1/admin/payouts/${payoutId}/${decision}`,
        decision === 'send' ? { externalReference: `WIRE-${payoutId}` } : { reason: 'Race test' },
      );
    await plantStepUpCodes(app, {
      userId: customer.user.id,
      code: stepUpCode,
      count: chainCount * chainLength,
      amount: '20.00',
    });
    // 100.00 is available. Four chains of twelve payouts of 20.00 race ten sends, ten
    // rejects (which free 100.00) and, for five of the sent payouts, a reject as well.
    const [newPayouts, sends, rejects, contested] = await Promise.all([
      Promise.all(
        Array.from({ length: chainCount }, () =>
          requestPayoutsInChain(customer, chainLength, '20.00'),
        ),
      ),
      Promise.all(toSend.map((id) => decide(id, 'send'))),
      Promise.all(toReject.map((id) => decide(id, 'reject'))),
      Promise.all(toSend.slice(0, 5).map((id) => decide(id, 'reject'))),
    ]);

    // Each of the ten payouts was decided exactly once; the five second decisions conflict.
    expect(outcomes([...sends, ...contested])).toEqual({ ok: 10, state_conflict: 5 });
    expect(outcomes(rejects)).toEqual({ ok: 10 });
    const payoutOutcomes = outcomes(newPayouts.flat());
    // Two chains may read the same planted code before either spends it: one of them wins.
    for (const code of Object.keys(payoutOutcomes)) {
      expect(['ok', 'insufficient_funds', 'wrong_code']).toContain(code);
    }
    const accepted = BigInt(payoutOutcomes.ok ?? 0);
    // At most 100.00 + 100.00 + 5 × 10.00 was ever available: twelve payouts of 20.00.
    expect(accepted).toBeGreaterThan(0n);
    expect(accepted).toBeLessThanOrEqual(12n);

    const counts = await payoutCounts(customer.user.id);
    expect((counts.pending ?? 0n) + (counts.sent ?? 0n) + (counts.rejected ?? 0n)).toBe(
      20n + accepted,
    );
    const balance = await app.ledger.balance(customer.wallet.id);
    expect(balance.balanceMinor).toBe(30000n - (counts.sentMinor ?? 0n));
    expect(balance.heldMinor).toBe(counts.pendingMinor ?? 0n);
    expect(balance.availableMinor).toBeGreaterThanOrEqual(0n);
  });
});
