// True concurrency needs a real server with a connection pool: these run on PostgreSQL only.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/database.ts';
import { createWallet, transferLines, usd } from '../../test/factories.ts';
import type { Database } from '../db/client.ts';
import { AppError } from '../platform/app-error.ts';
import { type AccountId, createLedger, type Ledger } from './ledger.ts';

let db: Database;
let ledger: Ledger;

beforeAll(async () => {
  db = await openTestDatabase({ poolSize: 40 });
  ledger = createLedger(db);
});
afterEach(async () => {
  await ledger.assertInvariants();
});
afterAll(async () => {
  await db.close();
});

async function totalMoney(accountIds: AccountId[]): Promise<bigint> {
  let total = 0n;
  for (const accountId of accountIds) total += (await ledger.balance(accountId)).balanceMinor;
  return total;
}

/** Settles every promise and counts outcomes by 'ok' or error code; anything else fails. */
async function settleAll(work: Promise<unknown>[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const result of await Promise.allSettled(work)) {
    if (result.status === 'rejected' && !(result.reason instanceof AppError)) throw result.reason;
    const key = result.status === 'fulfilled' ? 'ok' : (result.reason as AppError).code;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

describe('under concurrency on PostgreSQL', () => {
  it('lets exactly 50 of 200 concurrent 1.00 debits through a 50.00 wallet', async () => {
    const wallet = await createWallet(ledger, { balance: '50.00' });
    const merchant = await createWallet(ledger);
    const outcomes = await settleAll(
      Array.from({ length: 200 }, () =>
        ledger.post({
          kind: 'transfer',
          memo: 'coffee',
          lines: transferLines(wallet, merchant, 100n),
        }),
      ),
    );
    expect(outcomes).toEqual({ ok: 50, insufficient_funds: 150 });
    expect(await ledger.balance(wallet)).toMatchObject({ balanceMinor: 0n, availableMinor: 0n });
    expect((await ledger.balance(merchant)).balanceMinor).toBe(5000n);
    const negative = await db.query(
      `SELECT 1 FROM account_balances b JOIN accounts a ON a.id = b.account_id
        WHERE a.kind = 'customer' AND b.balance_minor - b.held_minor < 0`,
    );
    expect(negative.rows).toEqual([]);
  });

  it('applies 50 concurrent retries with one idempotency key exactly once', async () => {
    const wallet = await createWallet(ledger, { balance: '50.00' });
    const merchant = await createWallet(ledger);
    const idempotencyKey = `retry-${crypto.randomUUID()}`;
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        ledger.post({
          kind: 'transfer',
          memo: 'retried',
          idempotencyKey,
          lines: transferLines(wallet, merchant, 700n),
        }),
      ),
    );
    expect(new Set(results.map((result) => result.entryId)).size).toBe(1);
    expect(results.filter((result) => !result.isReplay)).toHaveLength(1);
    expect((await ledger.balance(wallet)).balanceMinor).toBe(4300n);
    const entries = await db.query('SELECT id FROM journal_entries WHERE idempotency_key = $1', [
      idempotencyKey,
    ]);
    expect(entries.rows).toHaveLength(1);
  });

  it('runs opposite transfers between two wallets without deadlock failures', async () => {
    const alice = await createWallet(ledger, { balance: '100.00' });
    const bob = await createWallet(ledger, { balance: '100.00' });
    const transfers = Array.from({ length: 200 }, (_, index) =>
      index % 2 === 0
        ? ledger.post({ kind: 'transfer', memo: 'a→b', lines: transferLines(alice, bob, 10n) })
        : ledger.post({ kind: 'transfer', memo: 'b→a', lines: transferLines(bob, alice, 10n) }),
    );
    expect(await settleAll(transfers)).toEqual({ ok: 200 });
    expect((await ledger.balance(alice)).balanceMinor).toBe(10_000n);
    expect((await ledger.balance(bob)).balanceMinor).toBe(10_000n);
  });

  it('never overdraws when holds and transfers race for the same funds', async () => {
    const wallet = await createWallet(ledger, { balance: '30.00' });
    const other = await createWallet(ledger);
    const work: Promise<unknown>[] = [];
    for (let index = 0; index < 60; index += 1) {
      work.push(
        index % 2 === 0
          ? ledger.hold({ accountId: wallet, amountMinor: 100n, reason: 'payout' })
          : ledger.post({ kind: 'transfer', memo: 'x', lines: transferLines(wallet, other, 100n) }),
      );
    }
    const outcomes = await settleAll(work);
    expect(outcomes.ok).toBe(30);
    const balance = await ledger.balance(wallet);
    expect(balance.availableMinor).toBe(0n);
    expect(balance.balanceMinor + (await ledger.balance(other)).balanceMinor).toBe(3000n);
  });

  it('settles a hold once when a capture and a release race', async () => {
    const wallet = await createWallet(ledger, { balance: '20.00' });
    const clearing = await ledger.systemAccount('payout_clearing', usd);
    const holdId = await ledger.hold({ accountId: wallet, amountMinor: 2000n, reason: 'payout' });
    const outcomes = await settleAll([
      ...Array.from({ length: 10 }, () =>
        ledger.capture(holdId, {
          kind: 'payout',
          memo: 'sent',
          lines: transferLines(wallet, clearing, 2000n),
        }),
      ),
      ...Array.from({ length: 10 }, () => ledger.release(holdId)),
    ]);
    expect(outcomes.ok).toBe(1);
    expect(outcomes.hold_not_active).toBe(19);
    const balance = await ledger.balance(wallet);
    expect(balance.heldMinor).toBe(0n);
    expect([0n, 2000n]).toContain(balance.balanceMinor);
  });

  it('conserves money across many wallets and a hot system account', async () => {
    const wallets = await Promise.all(
      Array.from({ length: 10 }, () => createWallet(ledger, { balance: '10.00' })),
    );
    const billClearing = await ledger.systemAccount('bill_clearing', usd);
    const before = await totalMoney([...wallets, billClearing]);
    const work = Array.from({ length: 300 }, (_, index) => {
      const from = wallets[index % wallets.length] as AccountId;
      const to =
        index % 3 === 0 ? billClearing : (wallets[(index * 7 + 3) % wallets.length] as AccountId);
      return ledger.post({ kind: 'transfer', memo: 'mix', lines: transferLines(from, to, 37n) });
    });
    await settleAll(work);
    expect(await totalMoney([...wallets, billClearing])).toBe(before);
  });
});
