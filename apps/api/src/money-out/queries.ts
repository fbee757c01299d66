import { type MoneyOutKind, moneyOutKinds } from '@coffer/contracts/limits';
import type { Queryable } from '../db/client.ts';
import type { AccountId } from '../ledger/ledger.ts';

/** A customer's standing for money out, read without locking (money_out_lock locks it). */
export type MoneyOutStandingRow = {
  level: number;
  is_email_verified: boolean;
  frozen_at: Date | null;
  frozen_reason: string | null;
  wallet_id: AccountId;
  currency: string;
} & Record<`${MoneyOutKind}_spent_minor`, string>;

/**
 * The customer's standing and the day's totals in the wallet's currency, for `walletId`
 * (one of their own: another's is not found) or their main wallet when it is null.
 */
export async function findMoneyOutStanding(
  db: Queryable,
  userId: string,
  walletId: string | null,
): Promise<MoneyOutStandingRow | null> {
  const found = await db.query<MoneyOutStandingRow>(
    `SELECT u.level, u.email_verified_at IS NOT NULL AS is_email_verified, u.frozen_at,
            u.frozen_reason, a.id AS wallet_id, a.currency,
            ${moneyOutKinds
              .map(
                (kind) =>
                  `coalesce(sum(d.spent_minor) FILTER (WHERE d.kind = '${kind}'), 0)::text AS ${kind}_spent_minor`,
              )
              .join(', ')}
       FROM users u JOIN accounts a ON a.owner_user_id = u.id AND a.kind = 'customer'
                                   AND (a.id = $2 OR ($2::uuid IS NULL AND a.is_main))
       LEFT JOIN money_out_days d
         ON d.user_id = u.id AND d.currency = a.currency
        AND d.day = (now() AT TIME ZONE 'UTC')::date
      WHERE u.id = $1 AND u.role = 'customer'
      GROUP BY u.id, a.id`,
    [userId, walletId],
  );
  return found.rows[0] ?? null;
}

/** A customer's wallet and whether it is frozen, its balance row locked when asked. */
export async function findWalletStanding(
  db: Queryable,
  userId: string,
  options: { isLocked: boolean },
): Promise<{
  wallet_id: AccountId;
  currency: string;
  frozen_reason: string | null;
  is_frozen: boolean;
} | null> {
  const found = await db.query<{
    wallet_id: AccountId;
    currency: string;
    frozen_reason: string | null;
    is_frozen: boolean;
  }>(
    `SELECT a.id AS wallet_id, a.currency, u.frozen_reason, u.frozen_at IS NOT NULL AS is_frozen
       FROM users u JOIN accounts a ON a.owner_user_id = u.id AND a.kind = 'customer' AND a.is_main
       JOIN account_balances b ON b.account_id = a.id
      WHERE u.id = $1 AND u.role = 'customer'
      ${options.isLocked ? 'FOR UPDATE OF b' : ''}`,
    [userId],
  );
  return found.rows[0] ?? null;
}

/** The sender money_out_lock (db/functions/money_out_lock.sql) locked and checked. */
export type LockedSenderRow = {
  username: string;
  level: number;
  wallet_id: AccountId;
  wallet_number: string;
  currency: string;
};

export async function callMoneyOutLock(
  tx: Queryable,
  request: {
    userId: string;
    kind: MoneyOutKind;
    amountMinor: bigint;
    dailyLimitMinorByLevel: (string | null)[];
    /** Null: the customer's main wallet. */
    walletId: string | null;
  },
): Promise<LockedSenderRow | undefined> {
  const found = await tx.query<LockedSenderRow>(
    `SELECT * FROM money_out_lock(p_user_id => $1, p_kind => $2, p_amount_minor => $3,
                                  p_daily_limit_minor_by_level => $4::bigint[],
                                  p_wallet_id => $5::uuid)`,
    [
      request.userId,
      request.kind,
      request.amountMinor.toString(),
      request.dailyLimitMinorByLevel,
      request.walletId,
    ],
    { preparedName: 'money_out_lock' },
  );
  return found.rows[0];
}

export async function callMoneyOutUncount(
  tx: Queryable,
  movement: {
    userId: string;
    kind: MoneyOutKind;
    madeAt: Date;
    amountMinor: bigint;
    currency: string;
  },
): Promise<void> {
  await tx.query(
    `SELECT money_out_uncount(p_user_id => $1, p_kind => $2, p_made_at => $3,
                              p_amount_minor => $4, p_currency => $5)`,
    [
      movement.userId,
      movement.kind,
      movement.madeAt,
      movement.amountMinor.toString(),
      movement.currency,
    ],
  );
}

/** step_up_spend's arguments after the user id: an emailed code's id, or a TOTP step. */
export type StepUpSpendArguments = { codeId: string | null; totpStep: string | null };

export async function callStepUpSpend(
  tx: Queryable,
  userId: string,
  spent: StepUpSpendArguments,
): Promise<void> {
  await tx.query('SELECT step_up_spend(p_user_id => $1, p_code_id => $2, p_totp_step => $3)', [
    userId,
    spent.codeId,
    spent.totpStep,
  ]);
}

/**
 * The (user, kind, day) totals that differ from the movements they count (a day whose
 * payouts were all rejected counts zero): none, unless a bug let them drift. A confirmed
 * bulk payment file's lines still pending count on the day it was confirmed: its total
 * was counted then (ADR 044). For tests, next to the ledger's invariants.
 */
export async function moneyOutDayMismatches(db: Queryable): Promise<Record<string, unknown>[]> {
  const found = await db.query(
    `WITH movements AS (
       SELECT sender_user_id AS user_id, currency, 'transfer' AS kind, created_at, amount_minor
         FROM transfers
       UNION ALL
       SELECT b.user_id, b.currency, 'transfer', b.confirmed_at, l.amount_minor
         FROM bulk_payment_lines l JOIN bulk_payments b ON b.id = l.bulk_payment_id
        WHERE b.status = 'paying' AND l.status = 'pending'
       UNION ALL
       SELECT user_id, currency, 'bill_payment', created_at, amount_minor FROM bill_payments
       UNION ALL
       SELECT user_id, currency, 'payout', created_at, amount_minor FROM payouts
        WHERE status <> 'rejected'
     ), sums AS (
       SELECT user_id, currency, kind, (created_at AT TIME ZONE 'UTC')::date AS day,
              sum(amount_minor)::bigint AS spent_minor
         FROM movements GROUP BY 1, 2, 3, 4
     )
     SELECT coalesce(s.user_id, d.user_id) AS user_id, coalesce(s.currency, d.currency) AS currency,
            coalesce(s.kind, d.kind) AS kind, coalesce(s.day, d.day) AS day,
            s.spent_minor AS moved_minor, d.spent_minor AS counted_minor
       FROM sums s FULL JOIN money_out_days d
         ON d.user_id = s.user_id AND d.currency = s.currency AND d.kind = s.kind AND d.day = s.day
      WHERE coalesce(s.spent_minor, 0) <> coalesce(d.spent_minor, 0)`,
  );
  return found.rows;
}
