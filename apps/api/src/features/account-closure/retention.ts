import type { Database, Queryable } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { ScheduledJob } from '../../platform/jobs.ts';

const sweepIntervalMs = 24 * 60 * 60 * 1000;
/** Closed customers handled a run; the next run goes on (each is its own short transaction). */
const customersPerRunMax = 200;

export type RetentionDeps = { db: Database; retentionYears: number };

/** The closed customers whose retention period ended before `now`, oldest closure first. */
async function dueCustomers(db: Queryable, now: Date, retentionYears: number): Promise<string[]> {
  const found = await db.query<{ id: string }>(
    `SELECT id FROM users
      WHERE closed_at IS NOT NULL AND personal_data_removed_at IS NULL
        AND closed_at < $1::timestamptz - make_interval(years => $2)
      ORDER BY closed_at LIMIT $3`,
    [now.toISOString(), retentionYears, customersPerRunMax],
  );
  return found.rows.map((row) => row.id);
}

/**
 * Removes one closed customer's personal data (docs/OPERATIONS.md, "Closed accounts"):
 * what identifies them on their user row is replaced, their sign-in means, payees,
 * notifications, schedules and emails are deleted. Kept, as the law makes the operator
 * keep them: the ledger (entries, lines, transfers, payouts, card and loan records), the
 * audit log, identity verification records (AML), disputes and support threads.
 */
async function removePersonalData(tx: Queryable, userId: string): Promise<boolean> {
  const locked = await tx.query<{ id: string; email: string }>(
    `SELECT id, email FROM users
      WHERE id = $1 AND closed_at IS NOT NULL AND personal_data_removed_at IS NULL FOR UPDATE`,
    [userId],
  );
  const user = locked.rows[0];
  // Reopened or handled by another instance meanwhile.
  if (!user) return false;
  for (const table of ['sessions', 'passkeys', 'recovery_codes', 'payees', 'notifications']) {
    await tx.query(`DELETE FROM ${table} WHERE user_id = $1`, [userId]);
  }
  await tx.query(
    `DELETE FROM scheduled_payment_occurrences
      WHERE schedule_id IN (SELECT id FROM scheduled_payments WHERE user_id = $1)`,
    [userId],
  );
  await tx.query('DELETE FROM scheduled_payments WHERE user_id = $1', [userId]);
  await tx.query('DELETE FROM outbox_emails WHERE to_address = $1', [user.email]);
  await tx.query(`UPDATE cards SET holder_name = 'Removed' WHERE user_id = $1`, [userId]);
  // The address must stay unique and lower-case; `.invalid` can never receive mail.
  await tx.query(
    `UPDATE users
        SET username = 'Closed customer', email = 'removed-' || id || '@closed.invalid',
            phone = NULL, time_zone = NULL, password_hash = '!removed',
            totp_secret_encrypted = NULL, totp_pending_secret_encrypted = NULL,
            wants_notification_emails = false, personal_data_removed_at = now()
      WHERE id = $1`,
    [userId],
  );
  await recordAudit(tx, {
    action: 'personal_data_removed',
    actorUserId: null,
    subjectUserId: userId,
  });
  return true;
}

/** One run of the retention job: answers how many customers' data it removed. */
export async function removeExpiredPersonalData(deps: RetentionDeps, now: Date): Promise<number> {
  let removed = 0;
  for (const userId of await dueCustomers(deps.db, now, deps.retentionYears)) {
    if (await deps.db.transaction((tx) => removePersonalData(tx, userId))) removed += 1;
  }
  return removed;
}

/** The retention sweep as a scheduled job (platform/jobs.ts): daily, on one instance. */
export function personalDataRetentionJob(deps: RetentionDeps): ScheduledJob {
  return {
    name: 'closed-account-retention',
    intervalMs: sweepIntervalMs,
    run: async (now) => {
      await removeExpiredPersonalData(deps, now);
    },
  };
}
