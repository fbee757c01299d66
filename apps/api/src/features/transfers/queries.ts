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
  userId: 'u.id',
  accountNumber: 'a.number',
  email: 'u.email',
} as const;

/**
 * The customer found by their id, their wallet's account number or their email (stored
 * lower-cased). Staff have no wallet and are never found.
 */
export async function findCustomerWallet(
  db: Queryable,
  by: keyof typeof customerWalletColumns,
  value: string,
): Promise<CustomerWalletRow | null> {
  const found = await db.query<CustomerWalletRow>(
    `SELECT u.id AS user_id, u.username, a.id AS wallet_id, a.currency
       FROM users u JOIN accounts a ON a.owner_user_id = u.id AND a.kind = 'customer'
      WHERE u.role = 'customer' AND ${customerWalletColumns[by]} = $1`,
    [by === 'email' ? value.toLowerCase() : value],
  );
  return found.rows[0] ?? null;
}

/**
 * Locks the balance rows of both wallets in id order, the order the ledger updates them
 * in, so that two opposite transfers between the same wallets wait for each other instead
 * of deadlocking (each holding its sender's row and wanting the other's).
 */
export async function lockWalletsInIdOrder(tx: Queryable, walletIds: AccountId[]): Promise<void> {
  await tx.query(
    `SELECT account_id FROM account_balances WHERE account_id = ANY($1::uuid[])
      ORDER BY account_id FOR UPDATE`,
    [walletIds],
  );
}

export async function insertTransfer(
  tx: Queryable,
  transfer: {
    entryId: string;
    senderUserId: string;
    recipientUserId: string;
    amountMinor: bigint;
    currency: string;
    note: string | null;
  },
): Promise<{ created_at: Date }> {
  const inserted = await tx.query<{ created_at: Date }>(
    `INSERT INTO transfers (entry_id, sender_user_id, recipient_user_id, amount_minor, currency, note)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING created_at`,
    [
      transfer.entryId,
      transfer.senderUserId,
      transfer.recipientUserId,
      transfer.amountMinor,
      transfer.currency,
      transfer.note,
    ],
  );
  const row = inserted.rows[0];
  if (!row) throw new Error('an inserted transfer is returned');
  return row;
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
