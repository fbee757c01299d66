import type { Queryable } from '../db/client.ts';
import type { AccountId } from '../ledger/ledger.ts';
import { findCustomerWallet } from '../ledger/wallets.ts';
import type { StaffAction } from '../platform/access.ts';
import { AppError } from '../platform/app-error.ts';
import { findUserById, type UserRow } from './queries.ts';

/**
 * Customers: the person a staff action or a feature acts on, their wallet, their freeze and
 * their level. Several features use them (admin, cards, deposits, disputes, kyc, payouts,
 * support), so they live here and import no feature (docs/ARCHITECTURE.md).
 */

/** The person staff act on; 404 when there is none. */
export async function requireCustomer(deps: { db: Queryable }, userId: string): Promise<UserRow> {
  const user = await findUserById(deps.db, userId);
  if (!user) throw new AppError('not_found');
  return user;
}

/** The customer's wallet; null for staff, who have none. */
export async function walletIdOf(
  deps: { db: Queryable },
  userId: string,
): Promise<AccountId | null> {
  return (await findCustomerWallet(deps.db, userId))?.id ?? null;
}

/** Staff never act on their own account. */
export function refuseOwnAccount(action: StaffAction, userId: string): void {
  if (action.staff.userId === userId) throw new AppError('own_account');
}

/**
 * Refuses a sign-in to a closed account (ADR 050), in the sign-in's transaction. The row
 * is share-locked, so a closure committing meanwhile waits and then ends this session too.
 */
export async function refuseClosedAccount(tx: Queryable, userId: string): Promise<void> {
  const found = await tx.query<{ is_closed: boolean }>(
    'SELECT closed_at IS NOT NULL AS is_closed FROM users WHERE id = $1 FOR SHARE',
    [userId],
  );
  if (found.rows[0]?.is_closed) throw new AppError('account_closed');
}
