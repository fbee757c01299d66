// Running the data export's jobs in its API tests.
import type { FastifyInstance } from 'fastify';

/** Runs one of the export's jobs at `now`, as the runner would once it is due. */
export async function runExportJob(
  app: FastifyInstance,
  name: 'data-export-build' | 'data-export-expiry',
  now = new Date(),
): Promise<void> {
  // Due at once, whenever it last ran: each test asks for its own run.
  await app.db.query(
    "UPDATE scheduled_jobs SET next_run_at = $2::timestamptz - interval '1 second' WHERE name = $1",
    [name, now],
  );
  const ran = await app.jobs.runDue(now, [name]);
  if (!ran.includes(name)) throw new Error(`${name} did not run`);
  const failed = await app.db.query<{ last_error: string | null }>(
    'SELECT last_error FROM scheduled_jobs WHERE name = $1',
    [name],
  );
  if (failed.rows[0]?.last_error) throw new Error(`${name} failed: ${failed.rows[0].last_error}`);
}
