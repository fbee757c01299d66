// Each housekeeping batch finds the rows it removes through an index: a sweep that read a
// whole table of twenty million notifications every hour would be the load it is there to
// prevent (issue #36 item 2).
import { expect, it } from 'vitest';
import { useTestApp } from '../../test/app.ts';
import type { Database } from '../db/client.ts';
import { sweepsOf } from './housekeeping.ts';

let db: Database;

useTestApp((opened) => {
  ({ db } = opened);
});

const indexByTable: Record<string, string> = {
  idempotency_keys: 'idempotency_keys_created_at_idx',
  attempt_counters: 'attempt_counters_window_idx',
  notifications: 'notifications_read_at_idx',
  outbox_emails: 'outbox_emails_sent_at_idx',
  login_challenges: 'login_challenges_expires_at_idx',
  email_tokens: 'email_tokens_expires_at_idx',
  step_up_codes: 'step_up_codes_expires_at_idx',
  passkey_challenges: 'passkey_challenges_expires_at_idx',
  sessions: 'sessions_expires_at_idx',
  webhook_deliveries: 'webhook_deliveries_finished_at_idx',
  webhook_events: 'webhook_events_created_at_idx',
};

it('finds every batch through the index on its time column', async () => {
  const sweeps = sweepsOf({ readNotificationDays: 365, sentEmailDays: 30 });
  expect(sweeps.map((sweep) => sweep.table).sort()).toEqual(Object.keys(indexByTable).sort());
  for (const sweep of sweeps) {
    const plan = await db.transaction(async (tx) => {
      // The tables are small here, so the planner would read them whole: with sequential
      // scans priced out, a batch without an index would still show one.
      await tx.query('SET LOCAL enable_seqscan = off');
      const explained = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sweep.deleteBatch}`, [
        new Date(),
        1_000,
      ]);
      return explained.rows.map((row) => row['QUERY PLAN']).join('\n');
    });
    expect(plan, sweep.table).not.toMatch(/Seq Scan/);
    expect(plan, sweep.table).toContain(indexByTable[sweep.table]);
  }
});
