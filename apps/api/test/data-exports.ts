// Reading an export's zip back with a zip library, and running its jobs, for the data-export
// tests (API and browser).
import type { FastifyInstance } from 'fastify';
import yauzl from 'yauzl';

/** Every file of a zip, by name, read with yauzl (a reader independent of the writer). */
export function readZip(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, zipFile) => {
      if (error) return reject(error);
      const files = new Map<string, Buffer>();
      zipFile.on('error', reject);
      zipFile.on('end', () => resolve(files));
      zipFile.on('entry', (entry: yauzl.Entry) => {
        zipFile.openReadStream(entry, (openError, stream) => {
          if (openError) return reject(openError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', reject);
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(chunks));
            zipFile.readEntry();
          });
        });
      });
      zipFile.readEntry();
    });
  });
}

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
