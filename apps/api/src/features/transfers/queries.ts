import type { Queryable } from '../../db/client.ts';
import type { AccountId } from '../../ledger/ledger.ts';

/** A customer and their wallet: who can send or receive a Quick Pay. */
export type CustomerWalletRow = {
  user_id: string;
  username: string;
  wallet_id: AccountId;
  currency: string;
};

const customerWalletColumns = {
  accountNumber: 'a.number',
  email: 'u.email',
} as const;

export type RecipientKey = keyof typeof customerWalletColumns;

/**
 * The sender (by user id) and the customer a sender typed (by their wallet's account
 * number or their email, stored lower-cased), in one query. Staff have no wallet and are
 * never found; either may be missing, and both are the same row when the sender typed
 * their own number.
 */
export async function findSenderAndRecipient(
  db: Queryable,
  senderUserId: string,
  recipient: { by: RecipientKey; value: string },
): Promise<{ sender: CustomerWalletRow | null; recipient: CustomerWalletRow | null }> {
  const column = customerWalletColumns[recipient.by];
  const found = await db.query<CustomerWalletRow & { is_sender: boolean; is_recipient: boolean }>(
    `SELECT u.id AS user_id, u.username, a.id AS wallet_id, a.currency,
            u.id = $1 AS is_sender, ${column} = $2 AS is_recipient
       FROM users u JOIN accounts a ON a.owner_user_id = u.id AND a.kind = 'customer'
      WHERE u.role = 'customer' AND (u.id = $1 OR ${column} = $2)`,
    [senderUserId, recipient.by === 'email' ? recipient.value.toLowerCase() : recipient.value],
    { preparedName: `quick_pay_parties_by_${recipient.by}` },
  );
  return {
    sender: found.rows.find((row) => row.is_sender) ?? null,
    recipient: found.rows.find((row) => row.is_recipient) ?? null,
  };
}

export type TransferListRow = {
  entry_id: string;
  amount_minor: bigint;
  currency: string;
  note: string | null;
  created_at: Date;
  is_sent: boolean;
  counterparty_username: string;
};

/** A customer's Quick Pays, sent and received, newest first (entry ids are UUIDv7). */
export async function transfersOfUser(
  db: Queryable,
  userId: string,
  page: { cursor?: string | undefined; limit: number },
): Promise<TransferListRow[]> {
  const found = await db.query<TransferListRow>(
    `SELECT t.entry_id, t.amount_minor, t.currency, t.note, t.created_at,
            t.sender_user_id = $1 AS is_sent, other.username AS counterparty_username
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
