import type { BillCategory } from '@coffer/contracts/bills';
import type { Queryable } from '../../db/client.ts';
import type { RowOf } from '../../db/rows.ts';
import type { billPayments } from '../../db/schema.ts';
import type { AccountId, EntryId } from '../../ledger/ledger.ts';

export type BillPaymentRow = Pick<
  RowOf<typeof billPayments>,
  'id' | 'category' | 'biller_reference' | 'amount_minor' | 'currency' | 'created_at'
>;

const billPaymentColumns = 'id, category, biller_reference, amount_minor, currency, created_at';

export async function insertBillPayment(
  tx: Queryable,
  payment: {
    id: string;
    userId: string;
    accountId: AccountId;
    category: BillCategory;
    billerReference: string;
    amountMinor: bigint;
    currency: string;
    entryId: EntryId;
  },
): Promise<BillPaymentRow> {
  const inserted = await tx.query<BillPaymentRow>(
    `INSERT INTO bill_payments (id, user_id, account_id, category, biller_reference,
                                amount_minor, currency, entry_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${billPaymentColumns}`,
    [
      payment.id,
      payment.userId,
      payment.accountId,
      payment.category,
      payment.billerReference,
      payment.amountMinor,
      payment.currency,
      payment.entryId,
    ],
  );
  const row = inserted.rows[0];
  if (!row) throw new Error('INSERT … RETURNING returns the row');
  return row;
}

/** One customer's bill payments, newest first; ids are UUIDv7, so they sort by time. */
export async function billPaymentsOf(
  db: Queryable,
  userId: string,
  page: { cursor?: string | undefined; limit: number },
): Promise<BillPaymentRow[]> {
  const found = await db.query<BillPaymentRow>(
    `SELECT ${billPaymentColumns} FROM bill_payments
      WHERE user_id = $1 AND ($2::uuid IS NULL OR id < $2::uuid)
      ORDER BY id DESC LIMIT $3`,
    [userId, page.cursor ?? null, page.limit],
  );
  return found.rows;
}
