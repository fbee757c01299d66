import type { AccountKind, EntryKind } from '@coffer/contracts/ledger';
import type { Queryable } from '../../db/client.ts';
import type { RowOf } from '../../db/rows.ts';
import type { bookCloseBalances } from '../../db/schema.ts';

/** One currency and account kind of a closed day, as stored. */
export type CloseBalanceRow = Omit<RowOf<typeof bookCloseBalances>, 'day'>;

/** Debits and credits (both positive) of one currency and account kind over a span of time. */
export type Movement = {
  currency: string;
  accountKind: AccountKind;
  debitsMinor: bigint;
  creditsMinor: bigint;
};

/** A closed day's row, or a day computed live the same way. */
export type KindBalance = Movement & { openingMinor: bigint; closingMinor: bigint };

export type ClosedDay = {
  day: string;
  startsAt: Date;
  endsAt: Date;
  closedAt: Date;
  isBalanced: boolean;
  problems: string[];
};

/** Where a day of `timeZone` starts and ends, as the database's clock reads them. */
export async function dayBounds(
  db: Queryable,
  day: string,
  timeZone: string,
): Promise<{ startsAt: Date; endsAt: Date }> {
  const found = await db.query<{ starts_at: Date; ends_at: Date }>(
    `SELECT ($1::date::timestamp AT TIME ZONE $2) AS starts_at,
            (($1::date + 1)::timestamp AT TIME ZONE $2) AS ends_at`,
    [day, timeZone],
  );
  const row = found.rows[0];
  if (!row) throw new Error('a day always has bounds');
  return { startsAt: row.starts_at, endsAt: row.ends_at };
}

/**
 * The lines of the entries made in [from, to), summed per currency and account kind: a
 * range scan of journal_entries' time index, never the whole ledger.
 */
export async function movementsBetween(
  db: Queryable,
  from: Date | null,
  to: Date,
): Promise<{ movements: Movement[]; lineCount: bigint }> {
  const found = await db.query<{
    currency: string;
    account_kind: AccountKind;
    debits_minor: bigint;
    credits_minor: bigint;
    line_count: bigint;
  }>(
    `SELECT l.currency, a.kind AS account_kind,
            coalesce(sum(-l.amount_minor) FILTER (WHERE l.amount_minor < 0), 0)::bigint AS debits_minor,
            coalesce(sum(l.amount_minor) FILTER (WHERE l.amount_minor > 0), 0)::bigint AS credits_minor,
            count(*)::bigint AS line_count
       FROM journal_entries e
       JOIN journal_lines l ON l.entry_id = e.id
       JOIN accounts a ON a.id = l.account_id
      WHERE ($1::timestamptz IS NULL OR e.created_at >= $1) AND e.created_at < $2
      GROUP BY l.currency, a.kind`,
    [from, to],
  );
  return {
    movements: found.rows.map((row) => ({
      currency: row.currency,
      accountKind: row.account_kind,
      debitsMinor: row.debits_minor,
      creditsMinor: row.credits_minor,
    })),
    lineCount: found.rows.reduce((total, row) => total + row.line_count, 0n),
  };
}

/** The closed day's balances, or none when the day is not closed. */
export async function closedBalances(db: Queryable, day: string): Promise<KindBalance[]> {
  const found = await db.query<CloseBalanceRow>(
    `SELECT currency, account_kind, opening_minor, debits_minor, credits_minor, closing_minor
       FROM book_close_balances WHERE day = $1::date ORDER BY currency, account_kind`,
    [day],
  );
  return found.rows.map((row) => ({
    currency: row.currency,
    accountKind: row.account_kind,
    openingMinor: row.opening_minor,
    debitsMinor: row.debits_minor,
    creditsMinor: row.credits_minor,
    closingMinor: row.closing_minor,
  }));
}

type ClosedDayRow = {
  day: string;
  starts_at: Date;
  ends_at: Date;
  closed_at: Date;
  is_balanced: boolean;
  problems: string[];
};
const closedDayColumns = 'day::text AS day, starts_at, ends_at, closed_at, is_balanced, problems';

function toClosedDay(row: ClosedDayRow): ClosedDay {
  return {
    day: row.day,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    closedAt: row.closed_at,
    isBalanced: row.is_balanced,
    problems: row.problems,
  };
}

/** The closed day itself, or the last one closed before it (`before`). */
export async function findClosedDay(
  db: Queryable,
  day: string,
  which: 'on' | 'before',
): Promise<ClosedDay | null> {
  const found = await db.query<ClosedDayRow>(
    which === 'on'
      ? `SELECT ${closedDayColumns} FROM book_closes WHERE day = $1::date`
      : `SELECT ${closedDayColumns} FROM book_closes WHERE day < $1::date ORDER BY day DESC LIMIT 1`,
    [day],
  );
  return found.rows[0] ? toClosedDay(found.rows[0]) : null;
}

/**
 * What the close has to do at `now`: the last day closed, the day of the first journal
 * entry (where the books start), and today in `timeZone` by the earlier of `now` and the
 * database's clock, so that a clock running ahead never closes a day still going on.
 */
export async function closeProgress(
  db: Queryable,
  now: Date,
  timeZone: string,
): Promise<{ lastClosedDay: string | null; firstDay: string | null; today: string }> {
  const found = await db.query<{
    last_closed_day: string | null;
    first_day: string | null;
    today: string;
  }>(
    `SELECT (SELECT max(day) FROM book_closes)::text AS last_closed_day,
            ((SELECT min(created_at) FROM journal_entries) AT TIME ZONE $2)::date::text AS first_day,
            (least($1::timestamptz, now()) AT TIME ZONE $2)::date::text AS today`,
    [now, timeZone],
  );
  const row = found.rows[0];
  if (!row) throw new Error('the progress query returns one row');
  return { lastClosedDay: row.last_closed_day, firstDay: row.first_day, today: row.today };
}

/**
 * The first day of the books in `timeZone`: the earlier of the first closed day and the
 * day of the first journal entry; null while the journal is empty.
 */
export async function booksFirstDay(db: Queryable, timeZone: string): Promise<string | null> {
  const found = await db.query<{ first_day: string | null }>(
    `SELECT least((SELECT min(day) FROM book_closes),
                  ((SELECT min(created_at) FROM journal_entries) AT TIME ZONE $1)::date)::text AS first_day`,
    [timeZone],
  );
  return found.rows[0]?.first_day ?? null;
}

/** Today's date in `timeZone` by the database's clock. */
export async function todayIn(db: Queryable, timeZone: string): Promise<string> {
  const found = await db.query<{ today: string }>(
    'SELECT (now() AT TIME ZONE $1)::date::text AS today',
    [timeZone],
  );
  return found.rows[0]?.today ?? '';
}

/**
 * Writes a day's close; false when another instance closed it first (the day is the key,
 * so the second insert does nothing and its balances are never written).
 */
export async function insertClose(
  tx: Queryable,
  close: {
    day: string;
    timeZone: string;
    startsAt: Date;
    endsAt: Date;
    lineCount: bigint;
    isBalanced: boolean;
    problems: string[];
    balances: KindBalance[];
  },
): Promise<boolean> {
  const inserted = await tx.query(
    `INSERT INTO book_closes (day, time_zone, starts_at, ends_at, line_count, is_balanced, problems)
     VALUES ($1::date, $2, $3, $4, $5, $6, $7::jsonb) ON CONFLICT (day) DO NOTHING RETURNING day`,
    [
      close.day,
      close.timeZone,
      close.startsAt,
      close.endsAt,
      close.lineCount.toString(),
      close.isBalanced,
      JSON.stringify(close.problems),
    ],
  );
  if (inserted.rows.length === 0) return false;
  const { balances } = close;
  if (balances.length === 0) return true;
  await tx.query(
    `INSERT INTO book_close_balances
       (day, currency, account_kind, opening_minor, debits_minor, credits_minor, closing_minor)
     SELECT $1::date, * FROM unnest($2::text[], $3::text[]::account_kind[], $4::bigint[], $5::bigint[],
                                    $6::bigint[], $7::bigint[])`,
    [
      close.day,
      balances.map((row) => row.currency),
      balances.map((row) => row.accountKind),
      balances.map((row) => row.openingMinor.toString()),
      balances.map((row) => row.debitsMinor.toString()),
      balances.map((row) => row.creditsMinor.toString()),
      balances.map((row) => row.closingMinor.toString()),
    ],
  );
  return true;
}

/** The latest closed days with problems, newest first. */
export async function daysWithProblems(db: Queryable, limit: number): Promise<ClosedDay[]> {
  const found = await db.query<ClosedDayRow>(
    `SELECT ${closedDayColumns} FROM book_closes WHERE NOT is_balanced ORDER BY day DESC LIMIT $1`,
    [limit],
  );
  return found.rows.map(toClosedDay);
}

export type ExportLine = {
  lineId: bigint;
  entryId: string;
  createdAt: Date;
  kind: EntryKind;
  accountKind: AccountKind;
  accountNumber: string;
  amountMinor: bigint;
  currency: string;
  memo: string;
};

/** Where the next page of the export starts: after this entry (its time as PostgreSQL wrote it). */
export type ExportCursor = { createdAtText: string; entryId: string };

/**
 * One page of the export: the lines of up to `entryLimit` entries made in [from, to) after
 * `cursor`, in time order. Keyset paging on journal_entries' (created_at, id) index keeps
 * each page as cheap as the first; the time goes back as text, since a JavaScript Date
 * would drop its microseconds and repeat or skip entries at a page's edge.
 */
export async function exportPage(
  db: Queryable,
  range: { from: Date; to: Date },
  cursor: ExportCursor | null,
  entryLimit: number,
): Promise<{ lines: ExportLine[]; next: ExportCursor | null }> {
  const found = await db.query<{
    line_id: bigint;
    entry_id: string;
    created_at: Date;
    created_at_text: string;
    kind: EntryKind;
    account_kind: AccountKind;
    account_number: string;
    amount_minor: bigint;
    currency: string;
    memo: string;
  }>(
    `WITH page AS (
       SELECT id, kind, memo, created_at FROM journal_entries
        WHERE created_at >= $1 AND created_at < $2
          AND ($3::timestamptz IS NULL OR (created_at, id) > ($3::timestamptz, $4::uuid))
        ORDER BY created_at, id LIMIT $5)
     SELECT l.id AS line_id, e.id AS entry_id, e.created_at, e.created_at::text AS created_at_text,
            e.kind, a.kind AS account_kind, a.number AS account_number, l.amount_minor,
            l.currency, e.memo
       FROM page e JOIN journal_lines l ON l.entry_id = e.id JOIN accounts a ON a.id = l.account_id
      ORDER BY e.created_at, e.id, l.id`,
    [range.from, range.to, cursor?.createdAtText ?? null, cursor?.entryId ?? null, entryLimit],
  );
  const last = found.rows.at(-1);
  const entryCount = new Set(found.rows.map((row) => row.entry_id)).size;
  return {
    lines: found.rows.map((row) => ({
      lineId: row.line_id,
      entryId: row.entry_id,
      createdAt: row.created_at,
      kind: row.kind,
      accountKind: row.account_kind,
      accountNumber: row.account_number,
      amountMinor: row.amount_minor,
      currency: row.currency,
      memo: row.memo,
    })),
    next:
      last && entryCount === entryLimit
        ? { createdAtText: last.created_at_text, entryId: last.entry_id }
        : null,
  };
}
