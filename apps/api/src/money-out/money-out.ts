import { type CurrencyCode, toCurrencyCode } from '@coffer/contracts/currencies';
import type { ErrorCode } from '@coffer/contracts/errors';
import {
  accountLevelMax,
  type CurrencyLimits,
  dailyLimitMinor,
  frozenAccountMessage,
  type LimitsTable,
  type MoneyOutAllowance,
  type MoneyOutAllowances,
  type MoneyOutKind,
  minimumLevelFor,
  moneyOutKinds,
} from '@coffer/contracts/limits';
import { formatMoney, minorUnits } from '@coffer/contracts/money';
import { z } from 'zod/mini';
import type { Queryable } from '../db/client.ts';
import { fromSqlError, type SqlRefusal } from '../db/sql-errors.ts';
import type { AccountId, Ledger } from '../ledger/ledger.ts';
import { AppError } from '../platform/app-error.ts';
import { assert } from '../platform/assert.ts';
import {
  callMoneyOutLock,
  callMoneyOutUncount,
  findMoneyOutStanding,
  findWalletStanding,
  type MoneyOutStandingRow,
} from './queries.ts';

/** The customer and wallet a money movement leaves from, as locked for it. */
export type MoneyOutSender = {
  userId: string;
  username: string;
  level: number;
  walletId: AccountId;
  walletNumber: string;
  currency: CurrencyCode;
};

export type MoneyOutRequest = {
  userId: string;
  /** One of the customer's own wallets, chosen by them; absent: their main wallet. */
  walletId?: string | undefined;
  kind: MoneyOutKind;
  amountMinor: bigint;
  /** The wallet's currency, which the limits are counted in. */
  currency: CurrencyCode;
  /** That currency's limits (`limitsOrRefuse`). */
  limits: CurrencyLimits;
};

/**
 * A currency's limits, or the customer's refusal when the operator set none for it and it
 * has no built-in default: no money leaves a wallet without a limit that fits its currency.
 */
export function limitsOrRefuse(table: LimitsTable, currency: CurrencyCode): CurrencyLimits {
  const limits = table.limitsFor(currency);
  if (!limits) {
    throw new AppError('limits_not_configured', {
      message: `Sending money in ${currency} is not available yet: its limits have not been set up. Contact support.`,
    });
  }
  return limits;
}

/**
 * The daily limits of one kind for every level, in the wallet's minor units, as the
 * database function wants them: element `level` (1-based) is that level's limit, null
 * where the kind is not allowed. Passed as strings: node-postgres has no bigint type.
 */
export function dailyLimitsMinorByLevel(
  limits: CurrencyLimits,
  kind: MoneyOutKind,
): (string | null)[] {
  return Array.from({ length: accountLevelMax }, (_, index) => {
    const limitMinor = dailyLimitMinor(limits, index + 1, kind);
    return limitMinor === null ? null : limitMinor.toString();
  });
}

const refusalDetailSchema = z.object({
  reason: z.nullish(z.string()),
  spentMinor: z.optional(z.coerce.bigint()),
  limitMinor: z.optional(z.coerce.bigint()),
});

type RefusalDetail = z.infer<typeof refusalDetailSchema>;

/** A money-out refusal in the customer's words; undefined for a code that is not one. */
function moneyOutRefusal(
  request: MoneyOutRequest,
  code: ErrorCode,
  detail: RefusalDetail = {},
): AppError | undefined {
  const { currency } = request;
  switch (code) {
    case 'not_found':
    case 'email_not_verified':
      return new AppError(code);
    case 'account_frozen':
      return new AppError('account_frozen', {
        message: frozenAccountMessage(detail.reason ?? 'no reason was given'),
      });
    case 'level_too_low':
      return new AppError('level_too_low', {
        message: `Your account level is too low for this transaction. Please upgrade to level ${minimumLevelFor(request.limits, request.kind)}.`,
      });
    case 'daily_limit_exceeded': {
      const limitMinor = detail.limitMinor ?? 0n;
      const spentMinor = detail.spentMinor ?? 0n;
      const leftMinor = limitMinor > spentMinor ? limitMinor - spentMinor : 0n;
      return new AppError('daily_limit_exceeded', {
        message: `This would go over your daily limit of ${formatMoney({ amountMinor: limitMinor, currency })}. You can still send ${formatMoney({ amountMinor: leftMinor, currency })} today.`,
      });
    }
    default:
      return undefined;
  }
}

/** money_out_lock's refusals (db/sql-errors.ts) in the customer's words, for `fromSqlError`. */
export function describeMoneyOutRefusal(
  refusal: SqlRefusal,
  request: MoneyOutRequest,
): AppError | undefined {
  if (!refusal.key.startsWith('CF101/')) return undefined;
  const detail = refusalDetailSchema.parse(refusal.detail ? JSON.parse(refusal.detail) : {});
  return moneyOutRefusal(request, refusal.code, detail);
}

function refusalOf(request: MoneyOutRequest, code: ErrorCode, detail?: RefusalDetail): AppError {
  const refusal = moneyOutRefusal(request, code, detail);
  assert(refusal, `${code} is a money-out refusal`);
  return refusal;
}

async function moneyOutStanding(
  db: Queryable,
  userId: string,
  walletId: string | undefined,
): Promise<MoneyOutStandingRow> {
  const standing = await findMoneyOutStanding(db, userId, walletId ?? null);
  if (!standing) throw new AppError('not_found');
  return standing;
}

function spentTodayMinor(row: MoneyOutStandingRow, kind: MoneyOutKind): bigint {
  return BigInt(row[`${kind}_spent_minor`]);
}

/** A money movement as the customer intends it, before any code is asked for. */
export type IntendedMoneyOut = MoneyOutRequest & {
  /** Charged on top of the amount (a payout's fee); the available balance must cover both. */
  feeMinor: bigint;
};

/**
 * Everything that can refuse a money movement without its step-up code, in PRODUCT.md's
 * order (frozen, verified email, level, daily limit, then the available balance incl. the
 * fee), with the same refusals the movement itself gives. Runs before a code is sent or
 * checked, so nobody types a code only to be told no; it reads without locking, and
 * money_out_lock and the ledger check all of it again, atomically, when the money moves.
 */
export async function precheckMoneyOut(
  deps: { db: Queryable; ledger: Ledger },
  intended: IntendedMoneyOut,
): Promise<void> {
  const standing = await moneyOutStanding(deps.db, intended.userId, intended.walletId);
  const refuse = (code: ErrorCode, detail?: RefusalDetail) => refusalOf(intended, code, detail);
  if (standing.frozen_at !== null)
    throw refuse('account_frozen', { reason: standing.frozen_reason });
  if (!standing.is_email_verified) throw refuse('email_not_verified');
  const limitMinor = dailyLimitMinor(intended.limits, standing.level, intended.kind);
  if (limitMinor === null) throw refuse('level_too_low');
  const spentMinor = spentTodayMinor(standing, intended.kind);
  if (spentMinor + intended.amountMinor > limitMinor) {
    throw refuse('daily_limit_exceeded', { spentMinor, limitMinor });
  }
  const balance = await deps.ledger.balance(standing.wallet_id);
  if (balance.availableMinor < intended.amountMinor + intended.feeMinor) {
    throw new AppError('insufficient_funds');
  }
}

function allowanceOf(
  standing: MoneyOutStandingRow,
  limits: CurrencyLimits | null,
  kind: MoneyOutKind,
): MoneyOutAllowance {
  const spentMinor = spentTodayMinor(standing, kind);
  const base = { kind, spentTodayMinor: minorUnits(spentMinor) };
  if (!limits) {
    return {
      ...base,
      status: 'not_available',
      dailyLimitMinor: null,
      remainingMinor: null,
      minimumLevel: null,
    };
  }
  const limitMinor = dailyLimitMinor(limits, standing.level, kind);
  if (limitMinor === null) {
    const minimumLevel = minimumLevelFor(limits, kind);
    return {
      ...base,
      status: 'level_too_low',
      dailyLimitMinor: null,
      remainingMinor: null,
      minimumLevel: minimumLevel > accountLevelMax ? null : minimumLevel,
    };
  }
  const remainingMinor = limitMinor > spentMinor ? limitMinor - spentMinor : 0n;
  return {
    ...base,
    status: 'allowed',
    dailyLimitMinor: minorUnits(limitMinor),
    remainingMinor: minorUnits(remainingMinor),
    minimumLevel: null,
  };
}

/**
 * What the customer may still move today out of one wallet (their main one when none is
 * given), per kind, read from money_out_days in that wallet's currency.
 */
export async function moneyOutAllowances(
  deps: { db: Queryable; config: { limits: LimitsTable } },
  userId: string,
  walletId?: string,
): Promise<MoneyOutAllowances> {
  const standing = await moneyOutStanding(deps.db, userId, walletId);
  const currency = toCurrencyCode(standing.currency);
  const limits = deps.config.limits.limitsFor(currency);
  return {
    currency,
    level: standing.level,
    stepUpThresholdMinor: limits ? minorUnits(limits.stepUpThresholdMinor) : null,
    items: moneyOutKinds.map((kind) => allowanceOf(standing, limits, kind)),
  };
}

/**
 * The checks every money movement out of a wallet makes, in PRODUCT.md's order: frozen,
 * then verified email, level and the daily limit. Call it first inside the movement's
 * transaction: it locks the wallet's balance row, so two movements of one customer are
 * checked one after the other. The balance itself is checked when the money moves.
 */
export async function lockMoneyOut(
  tx: Queryable,
  request: MoneyOutRequest,
): Promise<MoneyOutSender> {
  let row: Awaited<ReturnType<typeof callMoneyOutLock>>;
  try {
    row = await callMoneyOutLock(tx, {
      userId: request.userId,
      kind: request.kind,
      amountMinor: request.amountMinor,
      dailyLimitMinorByLevel: dailyLimitsMinorByLevel(request.limits, request.kind),
      walletId: request.walletId ?? null,
    });
  } catch (error) {
    throw fromSqlError(error, (refusal) => describeMoneyOutRefusal(refusal, request));
  }
  assert(row, 'money_out_lock returns the sender or raises');
  assert(row.currency === request.currency, 'a wallet keeps its currency');
  return {
    userId: request.userId,
    username: row.username,
    level: row.level,
    walletId: row.wallet_id,
    walletNumber: row.wallet_number,
    currency: request.currency,
  };
}

/**
 * The checks of money out that has no daily limit or level (repaying a debt to us: a
 * customer whose level fell must still be able to pay back): the wallet exists and is not
 * frozen, refused with the staff's reason. With `isLocked` (inside the movement's
 * transaction) it locks the wallet's balance row first, as `lockMoneyOut` does.
 */
export async function walletUnlessFrozen(
  db: Queryable,
  userId: string,
  options: { isLocked: boolean },
): Promise<{ walletId: AccountId; currency: CurrencyCode }> {
  const standing = await findWalletStanding(db, userId, options);
  if (!standing) throw new AppError('not_found');
  if (standing.is_frozen) {
    throw new AppError('account_frozen', {
      message: frozenAccountMessage(standing.frozen_reason ?? 'no reason was given'),
    });
  }
  return { walletId: standing.wallet_id, currency: toCurrencyCode(standing.currency) };
}

/** Takes a movement that will not happen after all (a rejected payout) out of its day. */
export async function uncountMoneyOut(
  tx: Queryable,
  movement: {
    userId: string;
    kind: MoneyOutKind;
    madeAt: Date;
    amountMinor: bigint;
    /** The currency it was counted in: its wallet's. */
    currency: CurrencyCode;
  },
): Promise<void> {
  await callMoneyOutUncount(tx, movement);
}
