import type { Database } from '../src/db/client.ts';

/**
 * Moves the entries made at or after `since` back by `days` whole days, as if they had been
 * posted then: the books' tests need days gone by. The append-only trigger is switched off
 * for the one statement, on the test's own database; nothing in the app can do this.
 */
export async function moveEntriesBack(db: Database, since: Date, days: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('ALTER TABLE journal_entries DISABLE TRIGGER journal_entries_append_only');
    await tx.query(
      `UPDATE journal_entries SET created_at = created_at - make_interval(days => $2)
        WHERE created_at >= $1`,
      [since, days],
    );
    await tx.query('ALTER TABLE journal_entries ENABLE TRIGGER journal_entries_append_only');
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
