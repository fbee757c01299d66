import type { FastifyInstance } from 'fastify';
import type { HousekeepingPeriods } from '../config.ts';
import type { Database } from '../db/client.ts';
import { attemptWindowMsMax } from './attempt-counters.ts';
import { idempotencyKeyTtlMs } from './idempotency.ts';

const dayMs = 24 * 60 * 60 * 1000;

/**
 * Rows that have done their work, removed on a schedule so their tables stay the size of
 * what is still in use (issue #36 item 2, ADR 042). The audit log and the ledger are never
 * among them.
 */
type Sweep = {
  table: string;
  /** Deletes at most $2 rows older than the cutoff $1, through an index on its column. */
  deleteBatch: string;
  keptMs: number;
};

/** Exported for the test that checks each batch finds its rows through an index. */
export function sweepsOf(periods: HousekeepingPeriods): Sweep[] {
  return [
    {
      // A key answers a retry for 24 hours (docs/IDEMPOTENCY.md); then it is a new request.
      table: 'idempotency_keys',
      deleteBatch: `DELETE FROM idempotency_keys WHERE (scope, key) IN (
                      SELECT scope, key FROM idempotency_keys WHERE created_at < $1 LIMIT $2)
                    RETURNING 1`,
      keptMs: idempotencyKeyTtlMs,
    },
    {
      // A counter whose window is over would start afresh anyway.
      table: 'attempt_counters',
      deleteBatch: `DELETE FROM attempt_counters WHERE key_hash IN (
                      SELECT key_hash FROM attempt_counters WHERE window_started_at < $1 LIMIT $2)
                    RETURNING 1`,
      keptMs: attemptWindowMsMax,
    },
    {
      // Unread ones stay however old: nobody has seen them yet.
      table: 'notifications',
      deleteBatch: `DELETE FROM notifications WHERE id IN (
                      SELECT id FROM notifications WHERE read_at < $1 LIMIT $2)
                    RETURNING 1`,
      keptMs: periods.readNotificationDays * dayMs,
    },
    {
      // Unsent ones stay: the mailer still retries them.
      table: 'outbox_emails',
      deleteBatch: `DELETE FROM outbox_emails WHERE id IN (
                      SELECT id FROM outbox_emails WHERE sent_at < $1 LIMIT $2)
                    RETURNING 1`,
      keptMs: periods.sentEmailDays * dayMs,
    },
    {
      // Delivered or given up (their attempts go with them); pending ones stay, however old.
      table: 'webhook_deliveries',
      deleteBatch: `DELETE FROM webhook_deliveries WHERE id IN (
                      SELECT id FROM webhook_deliveries WHERE finished_at < $1 LIMIT $2)
                    RETURNING 1`,
      keptMs: webhookHistoryKeptMs,
    },
    {
      // After the deliveries: an event goes once no delivery of it is left.
      table: 'webhook_events',
      deleteBatch: `DELETE FROM webhook_events WHERE id IN (
                      SELECT ev.id FROM webhook_events ev WHERE ev.created_at < $1
                         AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = ev.id)
                       LIMIT $2)
                    RETURNING 1`,
      keptMs: webhookHistoryKeptMs,
    },
    ...expiredCredentialSweeps,
  ];
}

/**
 * How long a finished webhook delivery, its attempts and its event are kept: the admin's
 * page shows them, and staff can send one again, for a month (ADR 048).
 */
const webhookHistoryKeptMs = 30 * dayMs;

/**
 * One-time codes and links past their expiry open nothing; a day's grace keeps them for
 * whoever is looking into a sign-in that just failed.
 */
const expiredCredentialSweeps: Sweep[] = [
  { table: 'login_challenges', key: 'token_hash', keptMs: dayMs },
  { table: 'email_tokens', key: 'token_hash', keptMs: dayMs },
  { table: 'step_up_codes', key: 'id', keptMs: dayMs },
  { table: 'passkey_challenges', key: 'id', keptMs: dayMs },
  // A session is also the device history a sign-in from a new browser is told apart by
  // (auth/queries.ts deviceHistoryOf): one unused for half a year counts as new again.
  { table: 'sessions', key: 'id', keptMs: 180 * dayMs },
].map(({ table, key, keptMs }) => ({
  table,
  deleteBatch: `DELETE FROM ${table} WHERE ${key} IN (
                  SELECT ${key} FROM ${table} WHERE expires_at < $1 LIMIT $2)
                RETURNING 1`,
  keptMs,
}));

/**
 * Small batches, each its own statement and so its own short transaction: no lock is held
 * for long, and other writers to these tables never wait behind a sweep.
 */
export const sweepBatchRowsDefault = 1_000;
/** A run stops after this many batches per table; the next run goes on. */
const batchesPerRunMax = 100;

/** Removes what `periods` no longer keeps at `now`; answers the rows removed per table. */
export async function sweepOldRows(
  db: Database,
  periods: HousekeepingPeriods,
  now: Date,
  batchRows = sweepBatchRowsDefault,
): Promise<Record<string, number>> {
  const removed: Record<string, number> = {};
  for (const sweep of sweepsOf(periods)) {
    const cutoff = new Date(now.getTime() - sweep.keptMs);
    let count = 0;
    for (let batch = 0; batch < batchesPerRunMax; batch += 1) {
      const rows = (await db.query(sweep.deleteBatch, [cutoff, batchRows])).rows.length;
      count += rows;
      if (rows < batchRows) break;
    }
    removed[sweep.table] = count;
    // PGlite runs no autovacuum worker (one process, no launcher): without this the space
    // of removed rows would never be used again. PostgreSQL's autovacuum does it there.
    if (db.kind === 'pglite' && count > 0) await db.query(`VACUUM ${sweep.table}`);
  }
  return removed;
}

const housekeepingIntervalMs = 60 * 60 * 1000;

/** The hourly job that sweeps; one instance runs it (platform/jobs.ts). */
export async function registerHousekeeping(app: FastifyInstance): Promise<void> {
  await app.jobs.register({
    name: 'housekeeping',
    intervalMs: housekeepingIntervalMs,
    run: async (now) => {
      const removed = await sweepOldRows(app.db, app.config.housekeeping, now);
      app.log.info({ removed }, 'housekeeping: old rows removed');
    },
  });
}
