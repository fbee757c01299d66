import { type CurrencyCode, toCurrencyCode } from '@coffer/contracts/currencies';
import {
  dailyLimitMajor,
  frozenAccountMessage,
  type MoneyOutKind,
  majorToMinor,
  minimumLevelFor,
} from '@coffer/contracts/limits';
import { formatMoney } from '@coffer/contracts/money';
import type { Queryable } from '../../db/client.ts';
import type { AccountId } from '../../ledger/ledger.ts';
import { AppError } from '../../platform/app-error.ts';

/** The customer and wallet a money movement leaves from, as locked for it. */
export type MoneyOutSender = {
  userId: string;
  username: string;
  level: number;
  walletId: AccountId;
  walletNumber: string;
  currency: CurrencyCode;
};

/** Sums of today's (UTC) money out of each kind; each feature reads its own table. */
const spentTodaySql: Record<MoneyOutKind, string> = {
  transfer: `SELECT coalesce(sum(amount_minor), 0)::bigint AS spent FROM transfers
              WHERE sender_user_id = $1 AND created_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`,
  bill_payment: `SELECT coalesce(sum(amount_minor), 0)::bigint AS spent FROM bill_payments
                  WHERE user_id = $1 AND created_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`,
  payout: `SELECT coalesce(sum(amount_minor), 0)::bigint AS spent FROM payouts
            WHERE user_id = $1 AND status <> 'rejected'
              AND created_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`,
};

/**
 * The checks every money movement out of a wallet makes, in PRODUCT.md's order: frozen,
 * then level, then the daily limit. Call it inside the movement's transaction: it locks
 * the wallet's balance row first, so two movements of one customer are checked one after
 * the other and cannot both pass a limit that only one of them fits. The balance itself
 * is checked by the ledger when the money moves.
 */
export async function lockMoneyOut(
  tx: Queryable,
  request: { userId: string; kind: MoneyOutKind; amountMinor: bigint },
): Promise<MoneyOutSender> {
  const found = await tx.query<{
    username: string;
    level: number;
    email_verified_at: Date | null;
    frozen_at: Date | null;
    frozen_reason: string | null;
    wallet_id: AccountId;
    wallet_number: string;
    currency: string;
  }>(
    `SELECT u.username, u.level, u.email_verified_at, u.frozen_at, u.frozen_reason,
            a.id AS wallet_id, a.number AS wallet_number, a.currency
       FROM users u JOIN accounts a ON a.owner_user_id = u.id AND a.kind = 'customer'
       JOIN account_balances b ON b.account_id = a.id
      WHERE u.id = $1 AND u.role = 'customer'
      FOR UPDATE OF b`,
    [request.userId],
  );
  const row = found.rows[0];
  if (!row) throw new AppError('not_found');
  if (row.frozen_at) {
    throw new AppError('account_frozen', {
      message: frozenAccountMessage(row.frozen_reason ?? 'no reason was given'),
    });
  }
  if (!row.email_verified_at) throw new AppError('email_not_verified');
  const currency = toCurrencyCode(row.currency);
  const limitMajor = dailyLimitMajor(row.level, request.kind);
  if (limitMajor === null) {
    throw new AppError('level_too_low', {
      message: `Your account level is too low for this transaction. Please upgrade to level ${minimumLevelFor(request.kind)}.`,
    });
  }
  const limitMinor = majorToMinor(limitMajor, currency);
  const spent = await tx.query<{ spent: bigint }>(spentTodaySql[request.kind], [request.userId]);
  const spentMinor = spent.rows[0]?.spent ?? 0n;
  if (spentMinor + request.amountMinor > limitMinor) {
    const leftMinor = limitMinor > spentMinor ? limitMinor - spentMinor : 0n;
    throw new AppError('daily_limit_exceeded', {
      message: `This would go over your daily limit of ${formatMoney({ amountMinor: limitMinor, currency })}. You can still send ${formatMoney({ amountMinor: leftMinor, currency })} today.`,
    });
  }
  return {
    userId: request.userId,
    username: row.username,
    level: row.level,
    walletId: row.wallet_id,
    walletNumber: row.wallet_number,
    currency,
  };
}
