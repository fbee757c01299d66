import { toCurrencyCode } from '@coffer/contracts/currencies';
import { hasValidCheckDigit } from '@coffer/contracts/ledger';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { redateEntries } from '../../test/books.ts';
import { openTestDatabase } from '../../test/database.ts';
import { createWallet, deposit, transferLines, usd } from '../../test/factories.ts';
import type { Database } from '../db/client.ts';
import { AppError } from '../platform/app-error.ts';
import { AssertionError } from '../platform/assert.ts';
import { newId } from '../platform/ids.ts';
import { type AccountId, createLedger, type Ledger } from './ledger.ts';

let db: Database;
let ledger: Ledger;

beforeAll(async () => {
  db = await openTestDatabase();
  ledger = createLedger(db);
});
afterEach(async () => {
  await ledger.assertInvariants();
});
afterAll(async () => {
  await db.close();
});

async function available(accountId: AccountId): Promise<bigint> {
  return (await ledger.balance(accountId)).availableMinor;
}

async function entryCount(): Promise<number> {
  const result = await db.query<{ count: bigint }>(
    'SELECT count(*)::bigint AS count FROM journal_entries',
  );
  return Number(result.rows[0]?.count);
}

describe('accounts', () => {
  it('opens wallets with distinct 10-digit numbers that carry a check digit', async () => {
    const numbers = new Set<string>();
    for (let index = 0; index < 20; index += 1) {
      const wallet = await ledger.openWallet(crypto.randomUUID(), usd);
      expect(wallet.number).toMatch(/^[1-9]\d{9}$/);
      expect(hasValidCheckDigit(wallet.number)).toBe(true);
      numbers.add(wallet.number);
    }
    expect(numbers.size).toBe(20);
  });

  it('creates one system account per kind and currency, on demand', async () => {
    const first = await ledger.systemAccount('fees', toCurrencyCode('EUR'));
    const fresh = createLedger(db);
    expect(await fresh.systemAccount('fees', toCurrencyCode('EUR'))).toBe(first);
    expect(await ledger.systemAccount('fees', usd)).not.toBe(first);
  });
});

describe('post', () => {
  it('moves money between wallets in one balanced entry', async () => {
    const from = await createWallet(ledger, { balance: '50.00' });
    const to = await createWallet(ledger);
    await ledger.post({
      kind: 'transfer',
      memo: 'rent share',
      lines: transferLines(from, to, 1250n),
    });
    expect(await available(from)).toBe(3750n);
    expect(await available(to)).toBe(1250n);
  });

  it('refuses to take a wallet below zero and writes nothing', async () => {
    const from = await createWallet(ledger, { balance: '10.00' });
    const to = await createWallet(ledger);
    const entriesBefore = await entryCount();
    await expect(
      ledger.post({ kind: 'transfer', memo: 'too much', lines: transferLines(from, to, 1001n) }),
    ).rejects.toMatchObject({ code: 'insufficient_funds' });
    expect(await available(from)).toBe(1000n);
    expect(await available(to)).toBe(0n);
    expect(await entryCount()).toBe(entriesBefore);
  });

  it('lets a wallet reach exactly zero', async () => {
    const from = await createWallet(ledger, { balance: '10.00' });
    const to = await createWallet(ledger);
    await ledger.post({
      kind: 'transfer',
      memo: 'all of it',
      lines: transferLines(from, to, 1000n),
    });
    expect(await available(from)).toBe(0n);
  });

  it('lets system accounts go negative: they are the outside world', async () => {
    const wallet = await createWallet(ledger);
    const settlement = await ledger.systemAccount('settlement', toCurrencyCode('GBP'));
    const before = (await ledger.balance(settlement)).balanceMinor;
    const gbpWallet = await ledger.openWallet(crypto.randomUUID(), toCurrencyCode('GBP'));
    await deposit(ledger, gbpWallet.id, 5000n, toCurrencyCode('GBP'));
    expect((await ledger.balance(settlement)).balanceMinor).toBe(before - 5000n);
    expect(await available(wallet)).toBe(0n);
  });

  it('refuses an entry that does not sum to zero, as a bug', async () => {
    const from = await createWallet(ledger, { balance: '10.00' });
    const to = await createWallet(ledger);
    const error = await ledger
      .post({
        kind: 'transfer',
        memo: 'unbalanced',
        lines: [
          { accountId: from, amountMinor: -100n },
          { accountId: to, amountMinor: 99n },
        ],
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AssertionError);
    expect(await available(from)).toBe(1000n);
  });

  it('refuses to mix currencies in one pair of lines', async () => {
    const dollars = await createWallet(ledger, { balance: '10.00' });
    const yen = await createWallet(ledger, { currency: toCurrencyCode('JPY') });
    await expect(
      ledger.post({ kind: 'transfer', memo: 'fx', lines: transferLines(dollars, yen, 100n) }),
    ).rejects.toBeInstanceOf(AssertionError);
  });

  it('accepts an entry balanced in each of its currencies', async () => {
    const jpy = toCurrencyCode('JPY');
    const dollars = await createWallet(ledger, { balance: '10.00' });
    const yen = await createWallet(ledger, { currency: jpy });
    const usdSettlement = await ledger.systemAccount('settlement', usd);
    const jpySettlement = await ledger.systemAccount('settlement', jpy);
    await ledger.post({
      kind: 'transfer',
      memo: 'exchange',
      lines: [
        { accountId: dollars, amountMinor: -1000n },
        { accountId: usdSettlement, amountMinor: 1000n },
        { accountId: jpySettlement, amountMinor: -1500n },
        { accountId: yen, amountMinor: 1500n },
      ],
    });
    expect(await available(yen)).toBe(1500n);
  });

  it('refuses zero-amount lines and single-line entries before touching the database', async () => {
    const wallet = await createWallet(ledger, { balance: '1.00' });
    await expect(
      ledger.post({ kind: 'transfer', memo: 'x', lines: [{ accountId: wallet, amountMinor: 0n }] }),
    ).rejects.toBeInstanceOf(AssertionError);
    await expect(
      ledger.post({ kind: 'transfer', memo: 'x', lines: transferLines(wallet, wallet, 0n) }),
    ).rejects.toBeInstanceOf(AssertionError);
  });

  it('answers not found for an unknown account', async () => {
    const wallet = await createWallet(ledger, { balance: '1.00' });
    await expect(
      ledger.post({
        kind: 'transfer',
        memo: 'x',
        lines: transferLines(wallet, crypto.randomUUID() as AccountId, 1n),
      }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });

  it('applies a posting once per idempotency key and returns the first entry on replay', async () => {
    const from = await createWallet(ledger, { balance: '10.00' });
    const to = await createWallet(ledger);
    const posting = {
      kind: 'transfer' as const,
      memo: 'once',
      idempotencyKey: `test-${crypto.randomUUID()}`,
      lines: transferLines(from, to, 300n),
    };
    const first = await ledger.post(posting);
    const second = await ledger.post(posting);
    expect(first.isReplay).toBe(false);
    expect(second).toEqual({ entryId: first.entryId, isReplay: true });
    expect(await available(to)).toBe(300n);
  });

  it('rolls back with the caller’s transaction', async () => {
    const from = await createWallet(ledger, { balance: '10.00' });
    const to = await createWallet(ledger);
    await expect(
      db.transaction(async (tx) => {
        await ledger.post(
          { kind: 'transfer', memo: 'rolled back', lines: transferLines(from, to, 500n) },
          tx,
        );
        throw new AppError('forbidden');
      }),
    ).rejects.toBeInstanceOf(AppError);
    expect(await available(from)).toBe(1000n);
    expect(await available(to)).toBe(0n);
  });
});

describe('holds', () => {
  it('reserves funds so they cannot be spent twice, without moving them', async () => {
    const wallet = await createWallet(ledger, { balance: '50.00' });
    const other = await createWallet(ledger);
    await ledger.hold({ accountId: wallet, amountMinor: 4000n, reason: 'payout' });
    expect(await ledger.balance(wallet)).toMatchObject({
      balanceMinor: 5000n,
      heldMinor: 4000n,
      availableMinor: 1000n,
    });
    await expect(
      ledger.post({ kind: 'transfer', memo: 'x', lines: transferLines(wallet, other, 1001n) }),
    ).rejects.toMatchObject({ code: 'insufficient_funds' });
    await expect(
      ledger.hold({ accountId: wallet, amountMinor: 1001n, reason: 'second payout' }),
    ).rejects.toMatchObject({ code: 'insufficient_funds' });
  });

  it('captures a hold into one entry and clears it', async () => {
    const wallet = await createWallet(ledger, { balance: '50.00' });
    const clearing = await ledger.systemAccount('payout_clearing', usd);
    const fees = await ledger.systemAccount('fees', usd);
    const holdId = await ledger.hold({ accountId: wallet, amountMinor: 2100n, reason: 'payout' });
    await ledger.capture(holdId, {
      kind: 'payout',
      memo: 'payout to bank',
      lines: [
        { accountId: wallet, amountMinor: -2100n },
        { accountId: clearing, amountMinor: 2000n },
        { accountId: fees, amountMinor: 100n },
      ],
    });
    expect(await ledger.balance(wallet)).toMatchObject({
      balanceMinor: 2900n,
      heldMinor: 0n,
      availableMinor: 2900n,
    });
  });

  it('releases a hold back to the available balance', async () => {
    const wallet = await createWallet(ledger, { balance: '50.00' });
    const holdId = await ledger.hold({ accountId: wallet, amountMinor: 5000n, reason: 'payout' });
    expect(await available(wallet)).toBe(0n);
    await ledger.release(holdId);
    expect(await ledger.balance(wallet)).toMatchObject({ balanceMinor: 5000n, heldMinor: 0n });
  });

  it('settles a hold only once', async () => {
    const wallet = await createWallet(ledger, { balance: '50.00' });
    const clearing = await ledger.systemAccount('payout_clearing', usd);
    const holdId = await ledger.hold({ accountId: wallet, amountMinor: 1000n, reason: 'payout' });
    const capture = {
      kind: 'payout' as const,
      memo: 'payout',
      lines: transferLines(wallet, clearing, 1000n),
    };
    await ledger.capture(holdId, capture);
    await expect(ledger.capture(holdId, capture)).rejects.toMatchObject({
      code: 'hold_not_active',
    });
    await expect(ledger.release(holdId)).rejects.toMatchObject({ code: 'hold_not_active' });
    expect(await available(wallet)).toBe(4000n);
  });

  it('refuses a capture that does not debit exactly the held amount', async () => {
    const wallet = await createWallet(ledger, { balance: '50.00' });
    const clearing = await ledger.systemAccount('payout_clearing', usd);
    const holdId = await ledger.hold({ accountId: wallet, amountMinor: 1000n, reason: 'payout' });
    await expect(
      ledger.capture(holdId, {
        kind: 'payout',
        memo: 'x',
        lines: transferLines(wallet, clearing, 900n),
      }),
    ).rejects.toBeInstanceOf(AssertionError);
    expect(await ledger.balance(wallet)).toMatchObject({ heldMinor: 1000n, balanceMinor: 5000n });
  });

  it('refuses holds on system accounts and unknown holds', async () => {
    const fees = await ledger.systemAccount('fees', usd);
    await expect(
      ledger.hold({ accountId: fees, amountMinor: 1n, reason: 'x' }),
    ).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(ledger.release(crypto.randomUUID() as never)).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});

describe('history', () => {
  it('lists an account’s lines newest first, a page at a time', async () => {
    const wallet = await createWallet(ledger);
    const settlement = await ledger.systemAccount('settlement', usd);
    for (let index = 1; index <= 5; index += 1) {
      await ledger.post({
        kind: 'deposit',
        memo: `deposit ${index}`,
        lines: transferLines(settlement, wallet, BigInt(index * 100)),
      });
    }
    const first = await ledger.history(wallet, { limit: 2 });
    expect(first.items.map((item) => item.memo)).toEqual(['deposit 5', 'deposit 4']);
    expect(first.items[0]).toMatchObject({ kind: 'deposit', amountMinor: 500n, currency: 'USD' });
    const second = await ledger.history(wallet, {
      limit: 2,
      cursor: first.nextCursor ?? undefined,
    });
    expect(second.items.map((item) => item.memo)).toEqual(['deposit 3', 'deposit 2']);
    const last = await ledger.history(wallet, { limit: 2, cursor: second.nextCursor ?? undefined });
    expect(last.items.map((item) => item.memo)).toEqual(['deposit 1']);
    expect(last.nextCursor).toBeNull();
  });
});

describe('the journal is append-only', () => {
  it('refuses to update or delete entries and lines, even for the database owner', async () => {
    const wallet = await createWallet(ledger, { balance: '1.00' });
    await expect(
      db.query('UPDATE journal_lines SET amount_minor = amount_minor * 2'),
    ).rejects.toThrow(/append-only/);
    await expect(db.query('DELETE FROM journal_entries')).rejects.toThrow(/append-only/);
    await expect(db.query('TRUNCATE journal_lines CASCADE')).rejects.toThrow(/append-only/);
    expect(await available(wallet)).toBe(100n);
  });
});

describe('accounts are permanent', () => {
  it('refuses to delete an account', async () => {
    const wallet = await createWallet(ledger, { balance: '1.00' });
    await expect(db.query('DELETE FROM accounts WHERE id = $1', [wallet])).rejects.toThrow(
      /never deleted/,
    );
  });
});

describe('invariants', () => {
  it('copies each entry’s time and kind onto its lines, and notices a line that differs', async () => {
    const wallet = await createWallet(ledger, { balance: '1.00' });
    const lines = await db.query<{ same: boolean; kind: string }>(
      `SELECT l.posted_at = e.created_at AS same, l.kind::text AS kind
         FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id WHERE l.account_id = $1`,
      [wallet],
    );
    expect(lines.rows).toEqual([{ same: true, kind: 'deposit' }]);
    const moved = "posted_at = posted_at - interval '1 microsecond'";
    await db.transaction(async (tx) => {
      await tx.query('ALTER TABLE journal_lines DISABLE TRIGGER journal_lines_append_only');
      await tx.query(`UPDATE journal_lines SET ${moved} WHERE account_id = $1`, [wallet]);
      await tx.query('ALTER TABLE journal_lines ENABLE TRIGGER journal_lines_append_only');
    });
    const violations = await ledger.checkInvariants();
    expect(violations.join('\n')).toContain('line time or kind differs from its entry');
    // Put right again, so the tests after this one start from a sound ledger.
    await redateEntries(db, { set: 'created_at', where: 'true', params: [] });
    expect(await ledger.checkInvariants()).toEqual([]);
  });

  it('notices a balance changed behind the ledger’s back', async () => {
    const wallet = await createWallet(ledger, { balance: '1.00' });
    await db.query(
      'UPDATE account_balances SET balance_minor = balance_minor + 1 WHERE account_id = $1',
      [wallet],
    );
    const violations = await ledger.checkInvariants();
    expect(violations.join('\n')).toContain(
      `account balance or hourly totals differ from its lines: ${wallet}`,
    );
    await expect(ledger.assertInvariants()).rejects.toThrow(/ledger invariants violated/);
    await db.query(
      'UPDATE account_balances SET balance_minor = balance_minor - 1 WHERE account_id = $1',
      [wallet],
    );
  });
});

// ledger_post_many (migration 0048, ADR 044): a batch of entries in one call, each checked
// as ledger_post checks one, and every balance row updated once with its net change.
type Entry = { key: string; lines: [AccountId, bigint][]; id?: string };

/** Calls ledger_post_many with `entries` (their lines flat, each naming its entry). */
async function postMany(entries: Entry[]) {
  const withIds = entries.map((entry) => ({ ...entry, id: entry.id ?? newId() }));
  const lines = withIds.flatMap((entry) => entry.lines.map((line) => ({ entry, line })));
  const posted = await db.query<{ idempotency_key: string; entry_id: string; is_replay: boolean }>(
    `SELECT * FROM ledger_post_many(p_kind => 'transfer', p_actor_user_id => NULL,
       p_entry_ids => $1::uuid[], p_memos => $2::text[], p_idempotency_keys => $3::text[],
       p_line_entry_ids => $4::uuid[], p_line_account_ids => $5::uuid[],
       p_line_amounts => $6::bigint[])`,
    [
      withIds.map((entry) => entry.id),
      withIds.map((entry) => `memo ${entry.key}`),
      withIds.map((entry) => entry.key),
      lines.map(({ entry }) => entry.id),
      lines.map(({ line }) => line[0]),
      lines.map(({ line }) => line[1].toString()),
    ],
  );
  return posted.rows;
}

async function balanceOf(accountId: AccountId): Promise<bigint> {
  return (await ledger.balance(accountId)).balanceMinor;
}

async function entriesWithKeyPrefix(prefix: string): Promise<number> {
  const found = await db.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM journal_entries WHERE idempotency_key LIKE $1',
    [`${prefix}%`],
  );
  return found.rows[0]?.count ?? -1;
}

describe('ledger_post_many', () => {
  it('posts each entry with its key and lines, and answers a replay with the first entries', async () => {
    const payer = await createWallet(ledger, { balance: '10.00' });
    const alice = await createWallet(ledger);
    const bob = await createWallet(ledger);
    const entries: Entry[] = [
      {
        key: 'many:a:1',
        lines: [
          [payer, -300n],
          [alice, 300n],
        ],
      },
      {
        key: 'many:a:2',
        lines: [
          [payer, -200n],
          [bob, 200n],
        ],
      },
      {
        key: 'many:a:3',
        lines: [
          [payer, -100n],
          [alice, 100n],
        ],
      },
    ];
    const first = await postMany(entries);
    expect(first.map((row) => [row.idempotency_key, row.is_replay])).toEqual([
      ['many:a:1', false],
      ['many:a:2', false],
      ['many:a:3', false],
    ]);
    expect([await balanceOf(payer), await balanceOf(alice), await balanceOf(bob)]).toEqual([
      400n,
      400n,
      200n,
    ]);
    const again = await postMany(entries);
    expect(again.every((row) => row.is_replay)).toBe(true);
    expect(new Map(again.map((row) => [row.idempotency_key, row.entry_id]))).toEqual(
      new Map(first.map((row) => [row.idempotency_key, row.entry_id])),
    );
    expect(await balanceOf(payer)).toBe(400n);
    expect(await entriesWithKeyPrefix('many:a:')).toBe(3);
  });

  it('updates a batch of many wallets by their net changes, posting only the new entries of a partly replayed batch', async () => {
    const payer = await createWallet(ledger, { balance: '10.00' });
    const recipients = [];
    for (let index = 0; index < 6; index += 1) recipients.push(await createWallet(ledger));
    const entryTo = (recipient: AccountId, index: number): Entry => ({
      key: `many:c:${index}`,
      lines: [
        [payer, -100n],
        [recipient, 100n],
      ],
    });
    // Twelve lines: more than an entry's few, so the wallets are updated set-based.
    const first = recipients.map(entryTo);
    await postMany(first);
    const second = [
      ...first,
      entryTo(recipients[0] as AccountId, 6),
      entryTo(recipients[1] as AccountId, 7),
    ];
    const posted = await postMany(second);
    expect(posted.filter((row) => !row.is_replay).map((row) => row.idempotency_key)).toEqual([
      'many:c:6',
      'many:c:7',
    ]);
    expect(await balanceOf(payer)).toBe(200n);
    expect(await Promise.all(recipients.map(balanceOf))).toEqual([
      200n,
      200n,
      100n,
      100n,
      100n,
      100n,
    ]);
    expect(await entriesWithKeyPrefix('many:c:')).toBe(8);
  });

  it('names the first short wallet in id order when a many-wallet batch overdraws, and posts nothing', async () => {
    const payers = [
      await createWallet(ledger, { balance: '1.00' }),
      await createWallet(ledger, { balance: '1.00' }),
    ].sort();
    const alice = await createWallet(ledger);
    const entries: Entry[] = Array.from({ length: 6 }, (_, index) => ({
      key: `many:d:${index}`,
      lines: [
        [payers[index % 2] as AccountId, -50n],
        [alice, 50n],
      ],
    }));
    await expect(postMany(entries)).rejects.toMatchObject({ code: 'CF001', detail: payers[0] });
    expect(await entriesWithKeyPrefix('many:d:')).toBe(0);
    expect(await Promise.all([...payers, alice].map(balanceOf))).toEqual([100n, 100n, 0n]);
  });

  it('refuses a malformed batch whole, and a batch its net change would overdraw', async () => {
    const payer = await createWallet(ledger, { balance: '5.00' });
    const alice = await createWallet(ledger);
    const fine: Entry = {
      key: 'many:b:1',
      lines: [
        [payer, -100n],
        [alice, 100n],
      ],
    };
    const refusals: [Entry[], string][] = [
      [
        [
          fine,
          {
            key: 'many:b:2',
            lines: [
              [payer, -100n],
              [alice, 99n],
            ],
          },
        ],
        'CF900',
      ],
      [[fine, { key: 'many:b:2', lines: [[payer, -100n]] }], 'CF900'],
      [
        [
          fine,
          {
            key: 'many:b:2',
            lines: [
              [payer, -0n],
              [alice, 0n],
            ],
          },
        ],
        'CF900',
      ],
      [[fine, { ...fine, id: newId() }], 'CF900'],
      [
        [
          fine,
          {
            key: 'many:b:2',
            lines: [
              [payer, -100n],
              [newId() as AccountId, 100n],
            ],
          },
        ],
        'CF003',
      ],
      // Each entry alone fits in 5.00; the two together do not.
      [
        [
          {
            key: 'many:b:1',
            lines: [
              [payer, -300n],
              [alice, 300n],
            ],
          },
          {
            key: 'many:b:2',
            lines: [
              [payer, -300n],
              [alice, 300n],
            ],
          },
        ],
        'CF001',
      ],
    ];
    for (const [entries, sqlState] of refusals) {
      await expect(postMany(entries)).rejects.toMatchObject({ code: sqlState });
    }
    expect(await entriesWithKeyPrefix('many:b:')).toBe(0);
    expect(await balanceOf(payer)).toBe(500n);
    expect(await balanceOf(alice)).toBe(0n);
  });
});
