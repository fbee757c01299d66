import type { Queryable } from '../../db/client.ts';
import type { AccountId } from '../../ledger/ledger.ts';

/** A payable customer as a file typed them: by account number or by (lower-cased) email. */
export type FoundRecipientRow = {
  typed_key: string;
  user_id: string;
  wallet_id: AccountId;
  currency: string;
};

/**
 * The customers of these account numbers and emails, in two statements for a whole file
 * instead of one a line: the look-up quick_pay_recipient makes (customers' wallets only;
 * staff have none and are never found, nor are closed accounts: ADR 050).
 */
export async function findRecipients(
  db: Queryable,
  keys: { accountNumbers: string[]; emails: string[] },
): Promise<FoundRecipientRow[]> {
  const byNumber = await db.query<FoundRecipientRow>(
    `SELECT a.number::text AS typed_key, u.id AS user_id, a.id AS wallet_id, a.currency::text AS currency
       FROM accounts a JOIN users u ON u.id = a.owner_user_id
      WHERE a.kind = 'customer' AND u.role = 'customer' AND u.closed_at IS NULL
        AND a.number = ANY($1::char(10)[])`,
    [keys.accountNumbers],
  );
  const byEmail = await db.query<FoundRecipientRow>(
    `SELECT u.email::text AS typed_key, u.id AS user_id, a.id AS wallet_id, a.currency::text AS currency
       FROM users u JOIN accounts a ON a.owner_user_id = u.id AND a.kind = 'customer' AND a.is_main
      WHERE u.role = 'customer' AND u.closed_at IS NULL AND u.email = ANY($1::text[])`,
    [keys.emails],
  );
  return [...byNumber.rows, ...byEmail.rows];
}

export type BulkPaymentRow = {
  id: string;
  user_id: string;
  wallet_id: AccountId;
  currency: string;
  status: 'checked' | 'paying' | 'done';
  line_count: number;
  total_minor: bigint;
  paid_count: number;
  refused_count: number;
  paid_minor: bigint;
  created_at: Date;
  confirmed_at: Date | null;
  finished_at: Date | null;
};

export type NewBulkLine = {
  lineNumber: number;
  recipientUserId: string;
  recipientWalletId: string;
  recipient: string;
  amountMinor: bigint;
  reference: string;
};

/** Lines written per statement: 10,000 lines are a few statements, none of them huge. */
const linesPerInsert = 1_000;

export async function insertBulkPayment(
  tx: Queryable,
  bulk: {
    id: string;
    userId: string;
    walletId: string;
    currency: string;
    totalMinor: bigint;
    lines: NewBulkLine[];
  },
): Promise<BulkPaymentRow> {
  const inserted = await tx.query<BulkPaymentRow>(
    `INSERT INTO bulk_payments (id, user_id, wallet_id, currency, line_count, total_minor)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
    [bulk.id, bulk.userId, bulk.walletId, bulk.currency, bulk.lines.length, bulk.totalMinor],
  );
  for (let start = 0; start < bulk.lines.length; start += linesPerInsert) {
    const chunk = bulk.lines.slice(start, start + linesPerInsert);
    await tx.query(
      `INSERT INTO bulk_payment_lines (bulk_payment_id, line_number, recipient_user_id,
                                       recipient_wallet_id, recipient, amount_minor, reference)
       SELECT $1::uuid, * FROM unnest($2::int[], $3::uuid[], $4::uuid[], $5::text[], $6::bigint[], $7::text[])`,
      [
        bulk.id,
        chunk.map((line) => line.lineNumber),
        chunk.map((line) => line.recipientUserId),
        chunk.map((line) => line.recipientWalletId),
        chunk.map((line) => line.recipient),
        chunk.map((line) => line.amountMinor.toString()),
        chunk.map((line) => line.reference),
      ],
    );
  }
  const row = inserted.rows[0];
  if (!row) throw new Error('bulk_payments insert returned no row');
  return row;
}

export async function findBulkPayment(
  db: Queryable,
  userId: string,
  bulkPaymentId: string,
): Promise<BulkPaymentRow | null> {
  const found = await db.query<BulkPaymentRow>(
    'SELECT * FROM bulk_payments WHERE id = $1 AND user_id = $2',
    [bulkPaymentId, userId],
  );
  return found.rows[0] ?? null;
}

export async function bulkPaymentsOfUser(
  db: Queryable,
  userId: string,
  limit: number,
): Promise<BulkPaymentRow[]> {
  const found = await db.query<BulkPaymentRow>(
    'SELECT * FROM bulk_payments WHERE user_id = $1 ORDER BY created_at DESC, id LIMIT $2',
    [userId, limit],
  );
  return found.rows;
}

/** Marks a checked file confirmed; null when it is not (any longer) waiting for that. */
export async function markPaying(
  tx: Queryable,
  userId: string,
  bulkPaymentId: string,
): Promise<BulkPaymentRow | null> {
  const updated = await tx.query<BulkPaymentRow>(
    `UPDATE bulk_payments SET status = 'paying', confirmed_at = now()
      WHERE id = $1 AND user_id = $2 AND status = 'checked' RETURNING *`,
    [bulkPaymentId, userId],
  );
  return updated.rows[0] ?? null;
}

export type ResultLineRow = {
  line_number: number;
  recipient: string;
  amount_minor: bigint;
  reference: string;
  status: 'pending' | 'paid' | 'refused';
  refusal_reason: string | null;
};

/** One page of a file's lines in line order, after line `afterLine`. */
export async function resultLines(
  db: Queryable,
  bulkPaymentId: string,
  afterLine: number,
  limit: number,
): Promise<ResultLineRow[]> {
  const found = await db.query<ResultLineRow>(
    `SELECT line_number, recipient, amount_minor, reference, status, refusal_reason
       FROM bulk_payment_lines WHERE bulk_payment_id = $1 AND line_number > $2
      ORDER BY line_number LIMIT $3`,
    [bulkPaymentId, afterLine, limit],
  );
  return found.rows;
}
