// Quick Pay's look-ups must be able to use their indexes: a comparison whose types differ
// from the column's (text against char(n)) makes PostgreSQL cast the column row by row,
// and the statement then reads the whole table on every payment, unnoticed while tables
// are small. With sequential scans priced out, a look-up that can use its index does; one
// that cannot still scans the table, or walks a whole index instead. The counts of this
// transaction tell them apart (the view also holds this connection's counts not yet
// reported, hence before and after).
// PostgreSQL only: PGlite's planner is the same, but its statistics views are not kept.
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { createCustomer } from '../../../test/customers.ts';
import type { Queryable } from '../../db/client.ts';
import { newId } from '../../platform/ids.ts';

let app: FastifyInstance;

useTestApp((opened) => {
  ({ app } = opened);
});

type Reads = { sequentialScans: number; rowsRead: number };

/** A table's sequential scans and rows read (by scans and through indexes) so far. */
async function readsOf(tx: Queryable, table: string): Promise<Reads> {
  const found = await tx.query<{ seq_scan: string; rows_read: string }>(
    `SELECT seq_scan, seq_tup_read + coalesce(idx_tup_fetch, 0) AS rows_read
       FROM pg_stat_xact_user_tables WHERE relname = $1`,
    [table],
  );
  const row = found.rows[0];
  if (!row) throw new Error(`no table ${table}`);
  return { sequentialScans: Number(row.seq_scan), rowsRead: Number(row.rows_read) };
}

function difference(after: Reads, before: Reads): Reads {
  return {
    sequentialScans: after.sequentialScans - before.sequentialScans,
    rowsRead: after.rowsRead - before.rowsRead,
  };
}

describe('Quick Pay on PostgreSQL', () => {
  it('finds the recipient by account number and the sender’s look-up counter through their indexes', async () => {
    const sender = await createCustomer(app, { balance: '10.00', level: 3 });
    const recipient = await createCustomer(app);
    // Other people's counters: reading them all would show.
    await app.db.query(
      `INSERT INTO attempt_counters (key_hash, window_started_at, attempt_count)
       SELECT encode(sha256(n::text::bytea), 'hex'), now(), 1 FROM generate_series(1, 500) AS n`,
    );
    const reads = await app.db.transaction(async (tx) => {
      await tx.query('SET LOCAL enable_seqscan = off');
      // Plans this connection cached while sequential scans were allowed would be reused.
      await tx.query('DISCARD PLANS');
      const accountsBefore = await readsOf(tx, 'accounts');
      const countersBefore = await readsOf(tx, 'attempt_counters');
      await tx.query(
        `SELECT * FROM quick_pay(
           p_idempotency_scope => 'test', p_idempotency_key => $1, p_request_hash => $2,
           p_entry_id => $3, p_sender_user_id => $4, p_sender_wallet_id => $5,
           p_recipient_account_number => $6, p_recipient_email => NULL,
           p_amount_minor => 100, p_currency => 'USD', p_memo => 'Quick Pay', p_note => NULL,
           p_daily_limit_minor_by_level => ARRAY[100000, 100000, 100000]::bigint[],
           p_step_up_code_id => NULL, p_step_up_totp_step => NULL, p_response_body => '{}',
           p_recipient_lookups_key_hash => $7, p_recipient_lookups_max => 10,
           p_recipient_lookups_window_ms => 60000)`,
        [
          newId(),
          'a'.repeat(64),
          newId(),
          sender.user.id,
          sender.wallet.id,
          recipient.wallet.number,
          'b'.repeat(64),
        ],
      );
      return {
        accounts: difference(await readsOf(tx, 'accounts'), accountsBefore),
        counters: difference(await readsOf(tx, 'attempt_counters'), countersBefore),
      };
    });
    expect(reads.accounts.sequentialScans).toBe(0);
    // The sender has no counter yet: its look-up finds nothing.
    expect(reads.counters).toEqual({ sequentialScans: 0, rowsRead: 0 });
    const transfers = await app.db.query(
      'SELECT 1 FROM transfers WHERE sender_user_id = $1 AND recipient_user_id = $2',
      [sender.user.id, recipient.user.id],
    );
    expect(transfers.rows).toHaveLength(1);
  });
});
