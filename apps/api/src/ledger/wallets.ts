import { type CurrencyCode, toCurrencyCode } from '@coffer/contracts/currencies';
import type { Queryable } from '../db/client.ts';
import type { AccountId } from './ledger.ts';

/** A customer's one wallet: its account id, number and currency. */
export type CustomerWalletRow = { id: AccountId; number: string; currency: CurrencyCode };

/** The customer's one wallet; staff have none (null). */
export async function findCustomerWallet(
  db: Queryable,
  userId: string,
): Promise<CustomerWalletRow | null> {
  const found = await db.query<{ id: AccountId; number: string; currency: string }>(
    `SELECT id, number, currency FROM accounts WHERE owner_user_id = $1 AND kind = 'customer'`,
    [userId],
  );
  const wallet = found.rows[0];
  return wallet ? { ...wallet, currency: toCurrencyCode(wallet.currency) } : null;
}
