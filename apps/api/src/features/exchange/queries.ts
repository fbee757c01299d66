import type { Queryable } from '../../db/client.ts';
import type { AccountId } from '../../ledger/ledger.ts';

export type QuoteRow = {
  id: string;
  user_id: string;
  sell_account_id: AccountId;
  receive_account_id: AccountId;
  sell_currency: string;
  receive_currency: string;
  sell_minor: bigint;
  receive_minor: bigint;
  markup_minor: bigint;
  rounding_minor: bigint;
  position_minor: bigint;
  mid_rate: string;
  applied_rate: string;
  markup_bp: number;
  rate_at: Date;
  expires_at: Date;
  accepted_at: Date | null;
  entry_id: string | null;
  /** Whether the quote is past its time by the database's clock, the one that decides. */
  is_expired: boolean;
};

export async function insertQuote(
  db: Queryable,
  quote: Omit<QuoteRow, 'expires_at' | 'accepted_at' | 'entry_id' | 'is_expired'>,
  validitySeconds: number,
): Promise<{ expires_at: Date }> {
  const inserted = await db.query<{ expires_at: Date }>(
    `INSERT INTO exchange_quotes (id, user_id, sell_account_id, receive_account_id, sell_currency,
                                  receive_currency, sell_minor, receive_minor, markup_minor,
                                  rounding_minor, position_minor, mid_rate, applied_rate,
                                  markup_bp, rate_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15,
             now() + make_interval(secs => $16))
     RETURNING expires_at`,
    [
      quote.id,
      quote.user_id,
      quote.sell_account_id,
      quote.receive_account_id,
      quote.sell_currency,
      quote.receive_currency,
      quote.sell_minor,
      quote.receive_minor,
      quote.markup_minor,
      quote.rounding_minor,
      quote.position_minor,
      quote.mid_rate,
      quote.applied_rate,
      quote.markup_bp,
      quote.rate_at,
      validitySeconds,
    ],
  );
  const row = inserted.rows[0];
  if (!row) throw new Error('INSERT … RETURNING answers the row');
  return row;
}

/** The customer's quote, locked: two accepts of one quote take turns here. */
export async function lockQuote(
  tx: Queryable,
  quoteId: string,
  userId: string,
): Promise<QuoteRow | null> {
  const found = await tx.query<QuoteRow>(
    `SELECT *, expires_at <= now() AS is_expired FROM exchange_quotes
      WHERE id = $1 AND user_id = $2 FOR UPDATE`,
    [quoteId, userId],
  );
  return found.rows[0] ?? null;
}

export async function markQuoteAccepted(
  tx: Queryable,
  quoteId: string,
  entryId: string,
): Promise<void> {
  await tx.query('UPDATE exchange_quotes SET accepted_at = now(), entry_id = $2 WHERE id = $1', [
    quoteId,
    entryId,
  ]);
}

/** Whether the customer's transactions are stopped (PRODUCT.md: frozen), with the reason. */
export async function frozenReasonOf(
  db: Queryable,
  userId: string,
): Promise<{ isFrozen: boolean; reason: string | null }> {
  const found = await db.query<{ frozen_at: Date | null; frozen_reason: string | null }>(
    'SELECT frozen_at, frozen_reason FROM users WHERE id = $1',
    [userId],
  );
  const row = found.rows[0];
  return { isFrozen: row?.frozen_at != null, reason: row?.frozen_reason ?? null };
}

/** A markup staff set (migration 0052), with the username of who set it. */
export type StaffMarkupRow = {
  pair: string;
  markup_bp: number;
  set_at: Date;
  reason: string;
  set_by_username: string;
};

export async function staffMarkups(db: Queryable): Promise<StaffMarkupRow[]> {
  const found = await db.query<StaffMarkupRow>(
    `SELECT m.pair, m.markup_bp, m.set_at, m.reason, u.username AS set_by_username
       FROM fx_markups m JOIN users u ON u.id = m.set_by_user_id
      ORDER BY m.pair`,
  );
  return found.rows;
}

/** The markup staff set for a pair ("EUR/JPY"), or null where the configured one applies. */
export async function staffMarkupOf(db: Queryable, pair: string): Promise<number | null> {
  const found = await db.query<{ markup_bp: number }>(
    'SELECT markup_bp FROM fx_markups WHERE pair = $1',
    [pair],
  );
  return found.rows[0]?.markup_bp ?? null;
}

/**
 * Holds off other changes of markups until the transaction ends, so that the value an
 * audit event records as "before" is the one the change replaced. Quotes only read the
 * table, which this lock mode lets them do.
 */
export async function lockMarkupChanges(tx: Queryable): Promise<void> {
  await tx.query('LOCK TABLE fx_markups IN SHARE ROW EXCLUSIVE MODE');
}

export async function upsertStaffMarkup(
  tx: Queryable,
  markup: { pair: string; markupBp: number; setByUserId: string; reason: string },
): Promise<void> {
  await tx.query(
    `INSERT INTO fx_markups (pair, markup_bp, set_by_user_id, reason) VALUES ($1, $2, $3, $4)
     ON CONFLICT (pair) DO UPDATE
       SET markup_bp = EXCLUDED.markup_bp, set_by_user_id = EXCLUDED.set_by_user_id,
           set_at = now(), reason = EXCLUDED.reason`,
    [markup.pair, markup.markupBp, markup.setByUserId, markup.reason],
  );
}

export async function deleteStaffMarkup(tx: Queryable, pair: string): Promise<void> {
  await tx.query('DELETE FROM fx_markups WHERE pair = $1', [pair]);
}
