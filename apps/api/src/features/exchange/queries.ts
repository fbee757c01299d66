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
