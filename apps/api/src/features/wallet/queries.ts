import type { EntryKind } from '@coffer/contracts/ledger';
import type { Queryable } from '../../db/client.ts';
import { lineIdMax } from '../../ledger/hourly-totals.ts';
import type { AccountId } from '../../ledger/ledger.ts';

/** Who the other side of a wallet's line is, when the line is a Quick Pay; null otherwise. */
export type QuickPayCounterpartyColumns = {
  is_transfer_sender: boolean | null;
  /** The other customer of a Quick Pay line, masked (mask_name); null on other lines. */
  counterparty_masked_name: string | null;
  transfer_note: string | null;
};

/**
 * The columns and joins that name the other customer of a Quick Pay beside one wallet's
 * lines, for a query over `journal_lines l JOIN journal_entries e`; `ownerParameter` is the
 * query parameter holding the wallet owner's user id ("$2"). The name is masked in SQL
 * (mask_name), so no other customer's full name leaves the database.
 */
export function quickPayCounterpartySql(ownerParameter: string): {
  columns: string;
  joins: string;
} {
  return {
    columns: `t.sender_user_id = ${ownerParameter} AS is_transfer_sender,
              mask_name(c.username) AS counterparty_masked_name, t.note AS transfer_note`,
    joins: `LEFT JOIN transfers t ON t.entry_id = e.id
            LEFT JOIN users c ON c.id = CASE WHEN t.sender_user_id = ${ownerParameter}
                                             THEN t.recipient_user_id ELSE t.sender_user_id END`,
  };
}

/** A ledger line of the wallet, with the other customer's name when it is a Quick Pay. */
export type WalletLineRow = {
  line_id: bigint;
  entry_id: string;
  kind: EntryKind;
  memo: string;
  amount_minor: bigint;
  currency: string;
  created_at: Date;
  /** The owner's dispute about the line's entry, if any. */
  dispute_reference: string | null;
} & QuickPayCounterpartyColumns;

/**
 * The wallet's lines, newest first (the line id is the order the ledger wrote them in),
 * before `beforeLineId` when given; only deposits into it when `isDepositsOnly`.
 */
export async function walletLines(
  db: Queryable,
  query: {
    wallet: { id: AccountId; ownerUserId: string };
    beforeLineId: bigint | null;
    limit: number;
    isDepositsOnly?: boolean;
  },
): Promise<WalletLineRow[]> {
  const counterparty = quickPayCounterpartySql('$2');
  const found = await db.query<WalletLineRow>(
    `SELECT l.id AS line_id, e.id AS entry_id, e.kind, e.memo, l.amount_minor, l.currency,
            e.created_at, ${counterparty.columns}, dd.reference AS dispute_reference
       FROM journal_lines l
       JOIN journal_entries e ON e.id = l.entry_id
       ${counterparty.joins}
       LEFT JOIN disputed_transactions dt ON dt.user_id = $2 AND dt.entry_id = e.id
       LEFT JOIN disputes dd ON dd.id = dt.dispute_id
      WHERE l.account_id = $1
        AND ($3::bigint IS NULL OR l.id < $3::bigint)
        AND (NOT $5::boolean OR (l.kind = 'deposit' AND l.amount_minor > 0))
      ORDER BY l.id DESC
      LIMIT $4`,
    [
      query.wallet.id,
      query.wallet.ownerUserId,
      query.beforeLineId,
      query.limit,
      query.isDepositsOnly ?? false,
    ],
  );
  return found.rows;
}

export type PayoutMethod = 'bank' | 'paypal' | 'cashapp' | 'crypto';

/** A payout that has no ledger line of its own: still held (pending), or rejected. */
export type UnsettledPayoutRow = {
  id: string;
  status: 'pending' | 'rejected';
  method: PayoutMethod;
  amount_minor: bigint;
  fee_minor: bigint;
  currency: string;
  created_at: Date;
  decision_reason: string | null;
};

/**
 * Pending and rejected payouts from the wallet, newest first: their ids are UUIDv7, so id
 * order is creation order. A sent payout is left out: its ledger line shows it.
 */
export async function unsettledPayouts(
  db: Queryable,
  query: { walletId: AccountId; beforePayoutId: string | null; limit: number },
): Promise<UnsettledPayoutRow[]> {
  const found = await db.query<UnsettledPayoutRow>(
    `SELECT id, status, method, amount_minor, fee_minor, currency, created_at, decision_reason
       FROM payouts
      WHERE account_id = $1 AND status IN ('pending', 'rejected')
        AND ($2::uuid IS NULL OR id < $2::uuid)
      ORDER BY id DESC
      LIMIT $3`,
    [query.walletId, query.beforePayoutId, query.limit],
  );
  return found.rows;
}

/**
 * The wallet's balance and held funds now, and the net of its lines on each UTC day since
 * `since`, read in one statement, so all come from the same snapshot of the ledger.
 */
export async function dailyNetsSince(
  db: Queryable,
  walletId: AccountId,
  since: Date,
): Promise<{ balanceMinor: bigint; heldMinor: bigint; netMinorByDay: Map<string, bigint> }> {
  const found = await db.query<{
    balance_minor: bigint;
    held_minor: bigint;
    day: string | null;
    net_minor: bigint;
  }>(
    `WITH daily AS (
       SELECT to_char(sums.at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
              sum(sums.credits_minor - sums.debits_minor)::bigint AS net_minor
         FROM wallet_period_sums($1, $2, 'infinity', $3) sums
        GROUP BY 1
     )
     SELECT balance_now.balance_minor, balance_now.held_minor, daily.day, daily.net_minor
       FROM (SELECT sum(balance_minor)::bigint AS balance_minor,
                    sum(held_minor)::bigint AS held_minor
               FROM account_balances WHERE account_id = $1) AS balance_now
       LEFT JOIN daily ON true`,
    [walletId, since, lineIdMax],
  );
  const netMinorByDay = new Map<string, bigint>();
  for (const row of found.rows) {
    if (row.day !== null) netMinorByDay.set(row.day, row.net_minor);
  }
  return {
    balanceMinor: found.rows[0]?.balance_minor ?? 0n,
    heldMinor: found.rows[0]?.held_minor ?? 0n,
    netMinorByDay,
  };
}

/**
 * What left the wallet since `since` per UTC month and kind of entry, for the kinds given:
 * the closed hours' totals and the lines since (ledger/hourly-totals.ts).
 */
export async function monthlyDebitsSince(
  db: Queryable,
  walletId: AccountId,
  since: Date,
  kinds: readonly EntryKind[],
): Promise<{ month: string; kind: EntryKind; debitsMinor: bigint }[]> {
  const found = await db.query<{ month: string; kind: EntryKind; debits_minor: bigint }>(
    `SELECT to_char(sums.at AT TIME ZONE 'UTC', 'YYYY-MM') AS month, sums.kind::text AS kind,
            sum(sums.debits_minor)::bigint AS debits_minor
       FROM wallet_period_sums($1, $2, 'infinity', $4) sums
      WHERE sums.debits_minor > 0 AND sums.kind::text = ANY($3::text[])
      GROUP BY 1, 2`,
    [walletId, since, kinds, lineIdMax],
  );
  return found.rows.map((row) => ({
    month: row.month,
    kind: row.kind,
    debitsMinor: row.debits_minor,
  }));
}

/** Locks the wallet's balance row: movements of one wallet that lock it go one at a time. */
export async function lockWalletBalance(tx: Queryable, walletId: AccountId): Promise<void> {
  await tx.query('SELECT 1 FROM account_balances WHERE account_id = $1 FOR UPDATE', [walletId]);
}

/** What the sandbox funding account has credited to a wallet since UTC midnight. */
export async function testMoneyAddedToday(
  db: Queryable,
  walletId: AccountId,
  sandboxFundingId: AccountId,
): Promise<bigint> {
  const today = await db.query<{ added_minor: bigint }>(
    `SELECT coalesce(sum(l.amount_minor), 0)::bigint AS added_minor
       FROM journal_lines l
      WHERE l.account_id = $1
        AND EXISTS (SELECT 1 FROM journal_lines f JOIN journal_entries e ON e.id = f.entry_id
                     WHERE f.entry_id = l.entry_id AND f.account_id = $2
                       AND e.created_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')`,
    [walletId, sandboxFundingId],
  );
  return BigInt(today.rows[0]?.added_minor ?? 0n);
}
