import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod/mini';
import type { Database, Queryable } from './client.ts';

const migrationsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');

const journalSchema = z.object({
  entries: z.array(z.object({ idx: z.number(), tag: z.string() })),
});

// Any constant works; it only has to be the same for every Coffer instance.
const migrationLockId = 7_261_001;

/**
 * Applies drizzle-kit's committed SQL files in journal order, each in its own transaction,
 * recording them in schema_migrations. The same files run on PGlite and PostgreSQL.
 * An advisory lock lets several instances start at once without racing.
 */
/** The committed migrations' tags in the order they apply. */
async function migrationTags(): Promise<string[]> {
  const journal = journalSchema.parse(
    JSON.parse(await readFile(path.join(migrationsDir, 'meta/_journal.json'), 'utf8')),
  );
  return [...journal.entries].sort((a, b) => a.idx - b.idx).map((entry) => entry.tag);
}

export async function migrate(db: Database): Promise<string[]> {
  await db.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
    tag text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
  const applied: string[] = [];
  for (const tag of await migrationTags()) {
    const statements = (await readFile(path.join(migrationsDir, `${tag}.sql`), 'utf8'))
      .split('--> statement-breakpoint')
      .map((statement) => statement.trim())
      .filter((statement) => statement !== '');
    const didApply = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [migrationLockId]);
      const done = await tx.query('SELECT 1 FROM schema_migrations WHERE tag = $1', [tag]);
      if (done.rows.length > 0) return false;
      for (const statement of statements) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (tag) VALUES ($1)', [tag]);
      return true;
    });
    if (didApply) applied.push(tag);
  }
  return applied;
}

/**
 * Reads the committed migrations once and answers which of them a database has not
 * applied (readiness asks it on every poll: one small query, no file read).
 */
export async function pendingMigrationsCheck(): Promise<(db: Queryable) => Promise<string[]>> {
  const tags = await migrationTags();
  return async (db) => {
    const applied = await db.query<{ tag: string }>('SELECT tag FROM schema_migrations');
    const appliedTags = new Set(applied.rows.map((row) => row.tag));
    return tags.filter((tag) => !appliedTags.has(tag));
  };
}
