import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod/mini';
import type { Database } from './client.ts';

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
export async function migrate(db: Database): Promise<string[]> {
  const journal = journalSchema.parse(
    JSON.parse(await readFile(path.join(migrationsDir, 'meta/_journal.json'), 'utf8')),
  );
  await db.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
    tag text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
  const applied: string[] = [];
  for (const { tag } of [...journal.entries].sort((a, b) => a.idx - b.idx)) {
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
