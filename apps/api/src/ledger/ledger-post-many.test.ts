// ledger_post_many (migration 0048, ADR 044): a batch of entries in one call, each checked
// as ledger_post checks one, and every balance row updated once with its net change.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/database.ts';
import { createWallet } from '../../test/factories.ts';
import type { Database } from '../db/client.ts';
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
