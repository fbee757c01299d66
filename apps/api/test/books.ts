import type { Database } from '../src/db/client.ts';

/**
 * Sets the time of the entries `where` picks (SQL over journal_entries, with `params`) to
 * `set` (SQL over the old `created_at`), and their lines' copy of it, as if they had been
 * posted then: the tests of days gone by need them. The append-only triggers are switched
 * off for these statements, on the test's own database; nothing in the app can do this.
 */
export async function redateEntries(
  db: Database,
  change: { set: string; where: string; params: unknown[] },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('ALTER TABLE journal_entries DISABLE TRIGGER journal_entries_append_only');
    await tx.query('ALTER TABLE journal_lines DISABLE TRIGGER journal_lines_append_only');
    await tx.query(
      `WITH moved AS (
         UPDATE journal_entries SET created_at = ${change.set} WHERE ${change.where}
         RETURNING id, created_at)
       UPDATE journal_lines l SET posted_at = moved.created_at FROM moved WHERE l.entry_id = moved.id`,
      change.params,
    );
    await tx.query('ALTER TABLE journal_lines ENABLE TRIGGER journal_lines_append_only');
    await tx.query('ALTER TABLE journal_entries ENABLE TRIGGER journal_entries_append_only');
    // Hours already summed may have gained or lost lines: they are summed again from the start.
    await tx.query('DELETE FROM wallet_hourly_totals');
    await tx.query('UPDATE wallet_hourly_totals_state SET summarized_before = NULL');
  });
}

/** Moves the entries made at or after `since` back by `days` whole days. */
export async function moveEntriesBack(db: Database, since: Date, days: number): Promise<void> {
  await redateEntries(db, {
    set: 'created_at - make_interval(days => $2)',
    where: 'created_at >= $1',
    params: [since, days],
  });
}

/** Today's date in UTC by the database's clock, and the days before it. */
export async function daysAgo(db: Database, days: number): Promise<string> {
  const found = await db.query<{ day: string }>(
    "SELECT ((now() AT TIME ZONE 'UTC')::date - $1::int)::text AS day",
    [days],
  );
  return found.rows[0]?.day ?? '';
}
