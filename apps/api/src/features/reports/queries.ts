import type { ReportVolumeKind } from '@coffer/contracts/reports';
import type { Queryable } from '../../db/client.ts';

/** A span of whole days of `timeZone`: [from's start, to's end). */
export type DaySpan = { from: string; to: string; timeZone: string };

/** `column` falls in the span ($1 to $2 in the time zone $3), as the database's clock reads it. */
function inSpan(column: string): string {
  return `${column} >= ($1::date::timestamp AT TIME ZONE $3)
      AND ${column} < (($2::date + 1)::timestamp AT TIME ZONE $3)`;
}
const localDay = (column: string) => `to_char(${column} AT TIME ZONE $3, 'YYYY-MM-DD')`;

/**
 * What the entries of each kind moved per day in one currency: the sum of their credit
 * lines. A range scan of journal_entries' time index, then each entry's lines by theirs.
 */
export async function dailyVolumes(
  db: Queryable,
  span: DaySpan,
  currency: string,
  kinds: readonly ReportVolumeKind[],
): Promise<{ day: string; kind: ReportVolumeKind; amountMinor: bigint }[]> {
  const found = await db.query<{ day: string; kind: ReportVolumeKind; amount_minor: bigint }>(
    `SELECT ${localDay('e.created_at')} AS day, e.kind::text AS kind,
            sum(l.amount_minor)::bigint AS amount_minor
       FROM journal_entries e
       JOIN journal_lines l ON l.entry_id = e.id
      WHERE ${inSpan('e.created_at')}
        AND e.kind::text = ANY($4::text[]) AND l.currency = $5 AND l.amount_minor > 0
      GROUP BY 1, 2`,
    [span.from, span.to, span.timeZone, kinds, currency],
  );
  return found.rows.map((row) => ({ day: row.day, kind: row.kind, amountMinor: row.amount_minor }));
}

/** Customers who signed up, and verifications approved, per day (partial indexes, 0027). */
export async function dailyPeopleCounts(
  db: Queryable,
  span: DaySpan,
): Promise<{ day: string; newCustomers: number; verificationsApproved: number }[]> {
  const found = await db.query<{ day: string; new_customers: number; approved: number }>(
    `SELECT day, sum(new_customers)::int AS new_customers, sum(approved)::int AS approved
       FROM (SELECT ${localDay('created_at')} AS day, 1 AS new_customers, 0 AS approved
               FROM users WHERE role = 'customer' AND ${inSpan('created_at')}
             UNION ALL
             SELECT ${localDay('decided_at')}, 0, 1
               FROM kyc_submissions WHERE status = 'approved' AND ${inSpan('decided_at')}) counted
      GROUP BY day`,
    [span.from, span.to, span.timeZone],
  );
  return found.rows.map((row) => ({
    day: row.day,
    newCustomers: row.new_customers,
    verificationsApproved: row.approved,
  }));
}

/** The queues' readings of the span's days (its primary key's range). */
export async function queueSizeReadings(
  db: Queryable,
  span: Pick<DaySpan, 'from' | 'to'>,
): Promise<{ day: string; queue: string; openCount: number }[]> {
  const found = await db.query<{ day: string; queue: string; open_count: number }>(
    `SELECT day::text AS day, queue, open_count FROM report_queue_sizes
      WHERE day BETWEEN $1::date AND $2::date`,
    [span.from, span.to],
  );
  return found.rows.map((row) => ({ day: row.day, queue: row.queue, openCount: row.open_count }));
}

/** Stores today's reading of the queues (in `timeZone`), over any earlier one of today. */
export async function recordQueueSizes(
  db: Queryable,
  timeZone: string,
  counts: readonly { queue: string; openCount: number }[],
): Promise<void> {
  if (counts.length === 0) return;
  await db.query(
    `INSERT INTO report_queue_sizes (day, queue, open_count)
     SELECT (now() AT TIME ZONE $1)::date, queue, open_count
       FROM unnest($2::text[], $3::int[]) AS reading (queue, open_count)
     ON CONFLICT (day, queue) DO UPDATE SET open_count = excluded.open_count, read_at = now()`,
    [timeZone, counts.map((count) => count.queue), counts.map((count) => count.openCount)],
  );
}
