import type { Queryable } from '../../db/client.ts';
import type { AccountId } from '../../ledger/ledger.ts';

/** The customer a sender typed: who they are, their name masked, and their wallet. */
export type RecipientRow = {
  user_id: string;
  masked_name: string;
  wallet_id: AccountId;
  currency: string;
};

/**
 * The customer with this wallet account number or this email (stored lower-cased): the
 * same look-up quick_pay makes (drizzle/0007). Staff have no wallet and are never found.
 */
export async function findRecipient(
  db: Queryable,
  typed: { accountNumber: string | null; email: string | null },
): Promise<RecipientRow | null> {
  const found = await db.query<RecipientRow>('SELECT * FROM quick_pay_recipient($1, $2)', [
    typed.accountNumber,
    typed.email,
  ]);
  return found.rows[0] ?? null;
}

export type TransferListRow = {
  entry_id: string;
  amount_minor: bigint;
  currency: string;
  note: string | null;
  created_at: Date;
  is_sent: boolean;
  counterparty_masked_name: string;
};

/** A customer's Quick Pays, sent and received, newest first (entry ids are UUIDv7). */
export async function transfersOfUser(
  db: Queryable,
  userId: string,
  page: { cursor?: string | undefined; limit: number },
): Promise<TransferListRow[]> {
  const found = await db.query<TransferListRow>(
    `SELECT t.entry_id, t.amount_minor, t.currency, t.note, t.created_at,
            t.sender_user_id = $1 AS is_sent, mask_name(other.username) AS counterparty_masked_name
       FROM transfers t
       JOIN users other ON other.id = CASE WHEN t.sender_user_id = $1
                                           THEN t.recipient_user_id ELSE t.sender_user_id END
      WHERE (t.sender_user_id = $1 OR t.recipient_user_id = $1)
        AND ($2::uuid IS NULL OR t.entry_id < $2::uuid)
      ORDER BY t.entry_id DESC LIMIT $3`,
    [userId, page.cursor ?? null, page.limit],
  );
  return found.rows;
}
