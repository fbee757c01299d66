import type { EntryKind } from '@coffer/contracts/ledger';
import type { Queryable } from '../../db/client.ts';
import { lineIdMax } from '../../ledger/hourly-totals.ts';
import type { AccountId } from '../../ledger/ledger.ts';
import { type QuickPayCounterpartyColumns, quickPayCounterpartySql } from '../wallet/queries.ts';

export type StatementAccountRow = {
  username: string;
  legal_name: string | null;
  time_zone: string | null;
  country: string;
  id: AccountId;
  number: string;
  currency: string;
};

/**
 * The customer's name and wallet, as the statement's heading shows them: the wallet named,
 * if it is theirs, or their main wallet.
 */
export async function findStatementAccount(
  db: Queryable,
  userId: string,
  walletId: string | undefined,
): Promise<StatementAccountRow | null> {
  const found = await db.query<StatementAccountRow>(
    `SELECT u.username, u.legal_name, u.time_zone, u.country, a.id, a.number, a.currency
       FROM users u JOIN accounts a ON a.owner_user_id = u.id AND a.kind = 'customer'
      WHERE u.id = $1 AND (a.id = $2::uuid OR ($2::uuid IS NULL AND a.is_main))`,
    [userId, walletId ?? null],
  );
  return found.rows[0] ?? null;
}

/**
 * The first instant of the period's first day and the first instant after its last day,
 * in the customer's zone: PostgreSQL knows each zone's offsets and daylight saving.
 */
export async function periodInstants(
  db: Queryable,
  period: { from: string; to: string; timeZone: string },
): Promise<{ start: Date; end: Date }> {
  const found = await db.query<{ start: Date; end: Date }>(
    `SELECT ($1::date::timestamp AT TIME ZONE $3) AS start,
            (($2::date + 1)::timestamp AT TIME ZONE $3) AS end`,
    [period.from, period.to, period.timeZone],
  );
  const instants = found.rows[0];
  if (!instants) throw new Error('no period bounds');
  return instants;
}

/**
 * Where a statement starts: the account's balance before `start` and its newest line, read in
 * one statement so both come from the same snapshot. The balance is summed from the nearer
 * end of the account's history: its lines before `start`, or today's balance less its lines
 * since (a million-line merchant's last month is a small part of its history).
 */
export async function statementOpening(
  db: Queryable,
  account: { accountId: AccountId; start: Date },
): Promise<{ openingBalanceMinor: bigint; lastLineId: bigint }> {
  const found = await db.query<{ opening_minor: bigint; last_line_id: bigint | null }>(
    `WITH history AS (
       SELECT (SELECT min(posted_at) FROM journal_lines WHERE account_id = $1) AS first_at,
              (SELECT max(id) FROM journal_lines WHERE account_id = $1) AS last_line_id)
     SELECT history.last_line_id,
            CASE WHEN $2::timestamptz - history.first_at < now() - $2::timestamptz
                 THEN (SELECT coalesce(sum(amount_minor), 0) FROM journal_lines
                        WHERE account_id = $1 AND posted_at < $2)
                 ELSE (SELECT coalesce(sum(balance_minor), 0) FROM account_balances
                        WHERE account_id = $1)
                      - (SELECT coalesce(sum(credits_minor - debits_minor), 0)
                           FROM wallet_period_sums($1, $2, 'infinity', $3))
            END::bigint AS opening_minor
       FROM history`,
    [account.accountId, account.start, lineIdMax],
  );
  const row = found.rows[0];
  return { openingBalanceMinor: row?.opening_minor ?? 0n, lastLineId: row?.last_line_id ?? 0n };
}

/**
 * The period's totals: what came in, what went out and how many lines, up to `lastLineId`
 * as the statement's pages read them, from the closed hours' totals and the other lines
 * (ledger/hourly-totals.ts).
 */
export async function statementTotals(
  db: Queryable,
  period: { accountId: AccountId; start: Date; end: Date; lastLineId: bigint },
): Promise<{ moneyInMinor: bigint; moneyOutMinor: bigint; entryCount: number }> {
  const found = await db.query<{ in_minor: bigint; out_minor: bigint; entry_count: number }>(
    `SELECT coalesce(sum(credits_minor), 0)::bigint AS in_minor,
            coalesce(sum(debits_minor), 0)::bigint AS out_minor,
            coalesce(sum(line_count), 0)::int AS entry_count
       FROM wallet_period_sums($1, $2, $3, $4)`,
    [period.accountId, period.start, period.end, period.lastLineId],
  );
  const row = found.rows[0];
  return {
    moneyInMinor: row?.in_minor ?? 0n,
    moneyOutMinor: row?.out_minor ?? 0n,
    entryCount: row?.entry_count ?? 0,
  };
}

export type StatementLineRow = {
  line_id: bigint;
  created_at: Date;
  kind: EntryKind;
  memo: string;
  amount_minor: bigint;
} & QuickPayCounterpartyColumns;

/**
 * One page of a wallet's lines in [start, end), oldest first, after the line `afterLineId`
 * (0 for the first page), read by the lines' time index (account, time, id) without
 * scanning the account's other periods. The cursor is the line itself, looked up, because
 * its time has microseconds that a JavaScript Date would round away.
 */
export async function statementLinesPage(
  db: Queryable,
  page: {
    accountId: AccountId;
    ownerUserId: string;
    start: Date;
    end: Date;
    afterLineId: bigint;
    lastLineId: bigint;
    limit: number;
  },
): Promise<StatementLineRow[]> {
  const counterparty = quickPayCounterpartySql('$7');
  const found = await db.query<StatementLineRow>(
    `SELECT l.id AS line_id, l.posted_at AS created_at, l.kind, e.memo, l.amount_minor,
            ${counterparty.columns}
       FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
       ${counterparty.joins}
      WHERE l.account_id = $1 AND l.posted_at >= $2 AND l.posted_at < $3 AND l.id <= $5
        AND ($4::bigint = 0 OR (l.posted_at, l.id) >
             (SELECT prev.posted_at, prev.id FROM journal_lines prev WHERE prev.id = $4))
      ORDER BY l.posted_at, l.id LIMIT $6`,
    [
      page.accountId,
      page.start,
      page.end,
      page.afterLineId,
      page.lastLineId,
      page.limit,
      page.ownerUserId,
    ],
  );
  return found.rows;
}
