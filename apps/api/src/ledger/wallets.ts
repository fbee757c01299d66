import { type CurrencyCode, toCurrencyCode } from '@coffer/contracts/currencies';
import type { Queryable } from '../db/client.ts';
import type { AccountId } from './ledger.ts';

/** A customer's wallet: its account id, number and currency, and whether it is the main one. */
export type CustomerWalletRow = {
  id: AccountId;
  number: string;
  currency: CurrencyCode;
  isMain: boolean;
};

type WalletColumns = { id: AccountId; number: string; currency: string; is_main: boolean };

const walletColumns = 'id, number, currency, is_main';

function walletOf(row: WalletColumns): CustomerWalletRow {
  return {
    id: row.id,
    number: row.number,
    currency: toCurrencyCode(row.currency),
    isMain: row.is_main,
  };
}

/**
 * The customer's main wallet, the one their country gave them at sign-up, which every
 * single-wallet feature uses (ADR 052); staff have none (null).
 */
export async function findCustomerWallet(
  db: Queryable,
  userId: string,
): Promise<CustomerWalletRow | null> {
  const found = await db.query<WalletColumns>(
    `SELECT ${walletColumns} FROM accounts
      WHERE owner_user_id = $1 AND kind = 'customer' AND is_main`,
    [userId],
  );
  const wallet = found.rows[0];
  return wallet ? walletOf(wallet) : null;
}

/** Every wallet of the customer, the main one first, then in the order they were opened. */
export async function listCustomerWallets(
  db: Queryable,
  userId: string,
): Promise<CustomerWalletRow[]> {
  const found = await db.query<WalletColumns>(
    `SELECT ${walletColumns} FROM accounts WHERE owner_user_id = $1 AND kind = 'customer'
      ORDER BY is_main DESC, created_at, id`,
    [userId],
  );
  return found.rows.map(walletOf);
}

/**
 * One of the customer's wallets by id, or their main wallet when no id is given; null when
 * the id is not one of theirs, so another customer's wallet reads as not found.
 */
export async function findOwnWallet(
  db: Queryable,
  userId: string,
  walletId: string | undefined,
): Promise<CustomerWalletRow | null> {
  if (walletId === undefined) return findCustomerWallet(db, userId);
  const found = await db.query<WalletColumns>(
    `SELECT ${walletColumns} FROM accounts
      WHERE id = $1 AND owner_user_id = $2 AND kind = 'customer'`,
    [walletId, userId],
  );
  const wallet = found.rows[0];
  return wallet ? walletOf(wallet) : null;
}

/** The customer's wallet in `currency`, if they hold one. */
export async function findWalletInCurrency(
  db: Queryable,
  userId: string,
  currency: CurrencyCode,
): Promise<CustomerWalletRow | null> {
  const found = await db.query<WalletColumns>(
    `SELECT ${walletColumns} FROM accounts
      WHERE owner_user_id = $1 AND kind = 'customer' AND currency = $2`,
    [userId, currency],
  );
  const wallet = found.rows[0];
  return wallet ? walletOf(wallet) : null;
}
