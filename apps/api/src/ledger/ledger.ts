import type { CurrencyCode } from '@coffer/contracts/currencies';
import { type EntryKind, memoLengthMax, type SystemAccountKind } from '@coffer/contracts/ledger';
import type { Database, Queryable } from '../db/client.ts';
import { fromSqlError } from '../db/sql-errors.ts';
import { AppError } from '../platform/app-error.ts';
import { assert } from '../platform/assert.ts';
import { newId } from '../platform/ids.ts';
import { generateAccountNumber } from './account-number.ts';
import { unsumHoursFrom } from './hourly-totals.ts';
import { checkInvariants } from './invariants.ts';

export type AccountId = string & { readonly brand: 'AccountId' };
export type HoldId = string & { readonly brand: 'HoldId' };
export type EntryId = string & { readonly brand: 'EntryId' };

export type PostingLine = { accountId: AccountId; amountMinor: bigint };

export type Posting = {
  kind: EntryKind;
  memo: string;
  /** Debits are negative, credits positive; per currency they sum to zero. */
  lines: PostingLine[];
  /** A second posting with the same key returns the first entry instead of applying. */
  idempotencyKey?: string;
  actorUserId?: string | null;
};

export type AccountBalance = {
  accountId: AccountId;
  currency: CurrencyCode;
  balanceMinor: bigint;
  heldMinor: bigint;
  availableMinor: bigint;
};

export type HistoryItem = {
  lineId: string;
  entryId: EntryId;
  kind: EntryKind;
  memo: string;
  amountMinor: bigint;
  currency: CurrencyCode;
  createdAt: Date;
};

/** Writers of a system account pick one of this many balance rows at random. */
export const systemAccountBucketCount = 16;
export const historyPageSizeMax = 100;
const accountNumberAttemptsMax = 20;

async function call<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw fromSqlError(error);
  }
}

function assertPostingShape(posting: Posting): void {
  assert(posting.lines.length >= 2, 'an entry needs two or more lines');
  assert(
    posting.lines.every((line) => line.amountMinor !== 0n),
    'a line amount must not be zero',
  );
  assert(posting.memo.length <= memoLengthMax, 'memo too long');
}

/** Posts an entry at `postedAt`, or now (null): the one call of ledger_post. */
async function postAt(
  tx: Queryable,
  posting: Posting,
  postedAt: Date | null,
): Promise<{ entryId: EntryId; isReplay: boolean }> {
  assertPostingShape(posting);
  const result = await call(() =>
    tx.query<{ entry_id: EntryId; is_replay: boolean }>(
      `SELECT entry_id, is_replay
         FROM ledger_post(p_entry_id => $1, p_kind => $2, p_memo => $3, p_idempotency_key => $4,
                          p_actor_user_id => $5, p_account_ids => $6::uuid[],
                          p_amounts => $7::bigint[], p_posted_at => $8::timestamptz)`,
      [
        newId(),
        posting.kind,
        posting.memo,
        posting.idempotencyKey ?? null,
        posting.actorUserId ?? null,
        posting.lines.map((line) => line.accountId),
        posting.lines.map((line) => line.amountMinor.toString()),
        postedAt,
      ],
      { preparedName: 'ledger_post' },
    ),
  );
  const row = result.rows[0];
  assert(row, 'ledger_post returns the entry');
  return { entryId: row.entry_id, isReplay: row.is_replay };
}

/**
 * Posts entries dated in the past, in one transaction: for the sandbox's demo history
 * alone (features/sandbox/seed.ts), so that a fresh sandbox has days for the books to
 * close. Anywhere else an entry's time is its transaction's, and a server outside the
 * sandbox refuses this outright; the database refuses a time to come or one inside a
 * closed day. Only the seed calls it (sandbox/seed.test.ts checks the source).
 */
export async function postBackDated(
  db: Database,
  config: { isSandbox: boolean },
  postings: { posting: Posting; postedAt: Date }[],
): Promise<void> {
  assert(config.isSandbox, 'entries are back-dated only in the sandbox');
  await db.transaction(async (tx) => {
    for (const { posting, postedAt } of postings) await postAt(tx, posting, postedAt);
    await unsumHoursFrom(
      tx,
      new Date(Math.min(...postings.map(({ postedAt }) => postedAt.getTime()))),
    );
  });
}

/**
 * The only code that changes balances. Each method takes an optional open transaction;
 * without one it runs on its own. Balances are never read and written back here: every
 * change is a conditional UPDATE inside the ledger functions (see the migration).
 */
export function createLedger(db: Database) {
  // System accounts are never deleted, so their ids are safe to remember.
  const systemAccountIds = new Map<string, AccountId>();

  async function openAccount(
    tx: Queryable,
    account: {
      kind: 'customer' | SystemAccountKind;
      currency: CurrencyCode;
      ownerUserId: string | null;
      isMain?: boolean;
    },
  ): Promise<{ id: AccountId; number: string } | null> {
    const bucketCount = account.kind === 'customer' ? 1 : systemAccountBucketCount;
    const id = newId() as AccountId;
    for (let attempt = 0; attempt < accountNumberAttemptsMax; attempt += 1) {
      const number = generateAccountNumber();
      const inserted = await tx.query(
        `INSERT INTO accounts (id, number, kind, owner_user_id, currency, bucket_count, is_main)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING RETURNING id`,
        [
          id,
          number,
          account.kind,
          account.ownerUserId,
          account.currency,
          bucketCount,
          account.isMain ?? true,
        ],
      );
      if (inserted.rows.length === 0) {
        // Either the number was taken (try another), the system account already exists, or
        // the customer already holds a wallet in this currency (or a main one).
        if (account.kind !== 'customer') return null;
        const held = await tx.query(
          `SELECT 1 FROM accounts WHERE owner_user_id = $1 AND kind = 'customer'
              AND (currency = $2 OR (is_main AND $3))`,
          [account.ownerUserId, account.currency, account.isMain ?? true],
        );
        if (held.rows.length > 0) throw new AppError('wallet_exists');
        continue;
      }
      await tx.query(
        `INSERT INTO account_balances (account_id, bucket)
         SELECT $1, generate_series(0, $2::int - 1)`,
        [id, bucketCount],
      );
      return { id, number };
    }
    throw new Error('could not find a free account number');
  }

  return {
    /**
     * Opens a customer's wallet: the main one in the transaction that creates the customer,
     * or another in a currency they do not hold yet (`isMain` false; ADR 052).
     */
    async openWallet(
      ownerUserId: string,
      currency: CurrencyCode,
      tx: Queryable = db,
      isMain = true,
    ): Promise<{ id: AccountId; number: string }> {
      const opened = await openAccount(tx, { kind: 'customer', currency, ownerUserId, isMain });
      assert(opened, 'a wallet is always opened');
      return opened;
    },

    /**
     * The system account of this kind and currency, created the first time it is asked
     * for. It runs outside any caller's transaction, so a rolled-back caller can never
     * leave a remembered id behind: ask for it before opening the transaction.
     */
    async systemAccount(kind: SystemAccountKind, currency: CurrencyCode): Promise<AccountId> {
      const cacheKey = `${kind}:${currency}`;
      const cached = systemAccountIds.get(cacheKey);
      if (cached) return cached;
      const id = await db.transaction(async (tx) => {
        await openAccount(tx, { kind, currency, ownerUserId: null });
        const found = await tx.query<{ id: AccountId }>(
          'SELECT id FROM accounts WHERE kind = $1 AND currency = $2',
          [kind, currency],
        );
        assert(found.rows[0], 'system account exists after creation');
        return found.rows[0].id;
      });
      systemAccountIds.set(cacheKey, id);
      return id;
    },

    post: (posting: Posting, tx: Queryable = db) => postAt(tx, posting, null),

    /** Reserves funds in a wallet: they stay in the balance but are no longer available. */
    async hold(
      hold: { accountId: AccountId; amountMinor: bigint; reason: string },
      tx: Queryable = db,
    ): Promise<HoldId> {
      assert(hold.amountMinor > 0n, 'a hold amount must be positive');
      const holdId = newId() as HoldId;
      await call(() =>
        tx.query(
          `SELECT ledger_hold(p_hold_id => $1, p_account_id => $2, p_amount => $3,
                              p_reason => $4)`,
          [holdId, hold.accountId, hold.amountMinor.toString(), hold.reason],
        ),
      );
      return holdId;
    },

    /** Settles a hold: posts the entry, whose line for the held wallet is minus the hold. */
    async capture(
      holdId: HoldId,
      posting: Omit<Posting, 'idempotencyKey'>,
      tx: Queryable = db,
    ): Promise<{ entryId: EntryId }> {
      assertPostingShape(posting);
      const entryId = newId() as EntryId;
      await call(() =>
        tx.query(
          `SELECT ledger_capture(p_hold_id => $1, p_entry_id => $2, p_kind => $3, p_memo => $4,
                                 p_actor_user_id => $5, p_account_ids => $6::uuid[],
                                 p_amounts => $7::bigint[])`,
          [
            holdId,
            entryId,
            posting.kind,
            posting.memo,
            posting.actorUserId ?? null,
            posting.lines.map((line) => line.accountId),
            posting.lines.map((line) => line.amountMinor.toString()),
          ],
        ),
      );
      return { entryId };
    },

    /** Gives held funds back to the wallet's available balance. */
    async release(holdId: HoldId, tx: Queryable = db): Promise<void> {
      await call(() => tx.query('SELECT ledger_release(p_hold_id => $1)', [holdId]));
    },

    async balance(accountId: AccountId, tx: Queryable = db): Promise<AccountBalance> {
      const result = await tx.query<{ currency: CurrencyCode; balance: bigint; held: bigint }>(
        `SELECT a.currency, sum(b.balance_minor)::bigint AS balance, sum(b.held_minor)::bigint AS held
           FROM accounts a JOIN account_balances b ON b.account_id = a.id
          WHERE a.id = $1 GROUP BY a.id`,
        [accountId],
      );
      const row = result.rows[0];
      if (!row) throw new AppError('not_found');
      return {
        accountId,
        currency: row.currency,
        balanceMinor: row.balance,
        heldMinor: row.held,
        availableMinor: row.balance - row.held,
      };
    },

    /** The account's lines, newest first; pass `nextCursor` back for the next page. */
    async history(
      accountId: AccountId,
      page: { cursor?: string | undefined; limit: number },
      tx: Queryable = db,
    ): Promise<{ items: HistoryItem[]; nextCursor: string | null }> {
      assert(page.limit >= 1 && page.limit <= historyPageSizeMax, 'history limit out of range');
      const result = await tx.query<{
        line_id: bigint;
        entry_id: EntryId;
        kind: EntryKind;
        memo: string;
        amount_minor: bigint;
        currency: CurrencyCode;
        created_at: Date;
      }>(
        `SELECT l.id AS line_id, e.id AS entry_id, e.kind, e.memo, l.amount_minor, l.currency, e.created_at
           FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
          WHERE l.account_id = $1 AND ($2::bigint IS NULL OR l.id < $2::bigint)
          ORDER BY l.id DESC LIMIT $3`,
        [accountId, page.cursor ?? null, page.limit + 1],
      );
      const hasMore = result.rows.length > page.limit;
      const rows = hasMore ? result.rows.slice(0, page.limit) : result.rows;
      return {
        items: rows.map((row) => ({
          lineId: row.line_id.toString(),
          entryId: row.entry_id,
          kind: row.kind,
          memo: row.memo,
          amountMinor: row.amount_minor,
          currency: row.currency,
          createdAt: row.created_at,
        })),
        nextCursor: hasMore ? (rows.at(-1)?.line_id.toString() ?? null) : null,
      };
    },

    checkInvariants: (tx: Queryable = db) => checkInvariants(tx),

    /** Throws, listing every violation, when the books do not balance. */
    async assertInvariants(tx: Queryable = db): Promise<void> {
      const violations = await checkInvariants(tx);
      assert(violations.length === 0, `ledger invariants violated:\n${violations.join('\n')}`);
    },
  };
}

export type Ledger = ReturnType<typeof createLedger>;
