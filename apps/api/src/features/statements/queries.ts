import type { EntryKind } from '@coffer/contracts/ledger';
import type { Queryable } from '../../db/client.ts';
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

/** The customer's name and wallet, as the statement's heading shows them. */
export async function findStatementAccount(
  db: Queryable,
  userId: string,
): Promise<StatementAccountRow | null> {
  const found = await db.query<StatementAccountRow>(
    `SELECT u.username, u.legal_name, u.time_zone, u.country, a.id, a.number, a.currency
       FROM users u JOIN accounts a ON a.owner_user_id = u.id AND a.kind = 'customer'
      WHERE u.id = $1`,
    [userId],
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

/** The id of the account's newest line, 0 when it has none. */
export async function newestLineId(db: Queryable, accountId: AccountId): Promise<bigint> {
  const newest = await db.query<{ line_id: bigint | null }>(
    'SELECT max(id) AS line_id FROM journal_lines WHERE account_id = $1',
    [accountId],
  );
  return newest.rows[0]?.line_id ?? 0n;
}

/** The account's balance from its lines up to `lastLineId` made before `before`. */
export async function balanceBefore(
  db: Queryable,
  account: { accountId: AccountId; before: Date; lastLineId: bigint },
): Promise<bigint> {
  const opening = await db.query<{ sum: bigint }>(
    `SELECT coalesce(sum(l.amount_minor), 0)::bigint AS sum
       FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
      WHERE l.account_id = $1 AND e.created_at < $2 AND l.id <= $3`,
    [account.accountId, account.before, account.lastLineId],
  );
  return opening.rows[0]?.sum ?? 0n;
}

export type StatementLineRow = {
  line_id: bigint;
  created_at: Date;
  kind: EntryKind;
  memo: string;
  amount_minor: bigint;
} & QuickPayCounterpartyColumns;

/** One page of a wallet's lines in [start, end), oldest first, after `afterLineId`. */
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
    `SELECT l.id AS line_id, e.created_at, e.kind, e.memo, l.amount_minor,
            ${counterparty.columns}
       FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
       ${counterparty.joins}
      WHERE l.account_id = $1 AND e.created_at >= $2 AND e.created_at < $3
        AND l.id > $4 AND l.id <= $5
      ORDER BY l.id LIMIT $6`,
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
